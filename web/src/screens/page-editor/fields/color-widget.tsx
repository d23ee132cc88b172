import { Button, ColorPicker, ColorSwatch, Group, Popover, TextInput } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { escapeStaysInside } from './escape-inside';
import { errorIdOf, FieldShell, isInvalid } from './field-shell';

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const SWATCHES = ['#1e3a8a', '#1c7ed6', '#0ca678', '#f59f00', '#e03131', '#862e9c', '#212529', '#ffffff'];

/**
 * The rjsf widget of a `color` field (`x-widget: color`): the hex text the
 * schema's pattern wants, its colour beside it, and a picker (Mantine's
 * ColorPicker: saturation, hue, swatches) behind a button. Not Mantine's
 * ColorInput: its picker's sliders have no accessible names (it passes
 * none through), and its dropdown opens on every focus of the text.
 */
export function ColorWidget({
  id,
  value,
  label,
  required,
  rawErrors,
  disabled,
  readonly,
  onChange,
  onBlur,
}: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  const name = label || 'Colour';
  const set = (next: string) => onChange(next === '' ? undefined : next);
  const invalid = isInvalid(rawErrors);
  return (
    <FieldShell id={id} label={name} required={required} rawErrors={rawErrors} labelFor={id}>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          id={id}
          required={required}
          value={text}
          disabled={disabled || readonly}
          error={invalid}
          aria-describedby={invalid ? errorIdOf(id) : ariaDescribedByIds(id)}
          leftSection={<ColorSwatch color={HEX.test(text) ? text : '#fff'} size={18} aria-hidden />}
          placeholder="#1e3a8a"
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => set(event.currentTarget.value)}
          onBlur={() => onBlur(id, text)}
          style={{ flex: 1 }}
        />
        <Popover position="bottom-end" shadow="md" trapFocus returnFocus>
          <Popover.Target>
            <Button variant="default" disabled={disabled || readonly}>
              Pick {name.toLowerCase()}
            </Button>
          </Popover.Target>
          <Popover.Dropdown {...escapeStaysInside()}>
            <ColorPicker
              format="hex"
              value={HEX.test(text) ? text : '#ffffff'}
              onChange={set}
              swatches={SWATCHES}
              swatchesPerRow={8}
              saturationLabel={`${name}: saturation and brightness`}
              hueLabel={`${name}: hue`}
            />
          </Popover.Dropdown>
        </Popover>
      </Group>
    </FieldShell>
  );
}
