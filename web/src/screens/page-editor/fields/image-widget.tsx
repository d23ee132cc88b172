import { Button, Group, Image, Stack, TextInput } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useState } from 'react';
import { errorIdOf, FieldShell, isInvalid } from './field-shell';
import { ALT_HINT, MediaLibrary } from './media-library';

/** What the page editor's form tells its widgets. */
export interface FieldsContext {
  /** The page's site: whose uploads the media library shows (none for a page outside a site). */
  siteId: number | null;
}

/** An image value in either stored shape: `{src, alt}`, or an address alone (stored before alt text). */
export function imageOf(value: unknown): { src: string; alt: string } {
  if (typeof value === 'string') return { src: value, alt: '' };
  if (value && typeof value === 'object') {
    const { src, alt } = value as Record<string, unknown>;
    return { src: typeof src === 'string' ? src : '', alt: typeof alt === 'string' ? alt : '' };
  }
  return { src: '', alt: '' };
}

/**
 * The rjsf widget of an `image` field (`x-widget: image`): the image shown,
 * its address (any http(s) image may be typed or pasted), its alt text, and
 * the site's media library to upload or choose one. A change stores
 * `{src, alt}`; a value stored as an address alone shows as one until
 * changed. "Remove image" empties the field.
 */
export function ImageWidget({
  id,
  value,
  label,
  required,
  rawErrors,
  disabled,
  readonly,
  onChange,
  onBlur,
  registry,
}: WidgetProps) {
  const { src, alt } = imageOf(value);
  const name = label || 'Image';
  const siteId = (registry.formContext as FieldsContext | undefined)?.siteId ?? null;
  const [open, setOpen] = useState(false);
  const off = disabled || readonly;
  const set = (next: { src: string; alt: string }) => onChange(next.src === '' ? undefined : next);
  const invalid = isInvalid(rawErrors);
  return (
    <FieldShell id={id} label={name} required={required} rawErrors={rawErrors}>
      <Stack gap={6}>
        {src && /^(https?:|\/)/i.test(src) && (
          <Image src={src} alt={alt} mah={140} w="auto" maw="100%" fit="contain" radius="sm" />
        )}
        <TextInput
          id={id}
          label="Address"
          aria-label={`${name} address`}
          size="sm"
          value={src}
          disabled={off}
          required={required}
          withAsterisk={false}
          placeholder="https://…"
          error={invalid}
          aria-describedby={invalid ? errorIdOf(id) : ariaDescribedByIds(id)}
          onChange={(event) => set({ src: event.currentTarget.value, alt })}
          onBlur={() => onBlur(id, value)}
        />
        <TextInput
          id={`${id}__alt`}
          label="Alt text"
          aria-label={`${name} alt text`}
          size="sm"
          description={ALT_HINT}
          value={alt}
          disabled={off || src === ''}
          onChange={(event) => set({ src, alt: event.currentTarget.value })}
        />
        <Group gap="xs">
          {siteId !== null && (
            <Button variant="default" size="compact-sm" disabled={off} onClick={() => setOpen(true)}>
              {src ? `Change ${name.toLowerCase()}…` : `Choose ${name.toLowerCase()}…`}
            </Button>
          )}
          {src && (
            <Button variant="subtle" color="red" size="compact-sm" disabled={off} onClick={() => onChange(undefined)}>
              Remove {name.toLowerCase()}
            </Button>
          )}
        </Group>
      </Stack>
      {siteId !== null && (
        <MediaLibrary
          siteId={siteId}
          opened={open}
          fieldLabel={name}
          current={src}
          alt={alt}
          onClose={() => setOpen(false)}
          onChoose={(chosen) => {
            set(chosen);
            setOpen(false);
          }}
        />
      )}
    </FieldShell>
  );
}
