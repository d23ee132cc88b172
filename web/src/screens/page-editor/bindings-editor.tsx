import { Fieldset, NativeSelect, Stack, Text } from '@mantine/core';
import { SchemaForm } from '../../forms/schema-form';
import { validator } from '../../forms/schema-validator';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import type { paths } from '../../api/client';
import { paramsIdPrefix, sourceId } from './server-error-schema';

type Contract = paths['/api/blocks/{id}/placeholder-schema']['get']['responses'][200]['content']['application/json'];
export type Slot = Contract['binding_slots'][number];
export type Binding = { source: string; params: Record<string, unknown> };
/** The chosen bindings by slot name; a slot without an entry uses the block's default, if any. */
export type Bindings = Record<string, Binding>;

/** The stored bindings of an instance, in the editor's shape. */
export function toBindings(stored: unknown): Bindings {
  const out: Bindings = {};
  if (!stored || typeof stored !== 'object') return out;
  for (const [slot, value] of Object.entries(stored as Record<string, unknown>)) {
    const binding = value as { source?: unknown; params?: unknown } | null;
    if (binding && typeof binding.source === 'string')
      out[slot] = {
        source: binding.source,
        params: binding.params && typeof binding.params === 'object' ? (binding.params as Record<string, unknown>) : {},
      };
  }
  return out;
}

/**
 * The live-data slots of an instance: for each, the source among the slot's
 * allowed ones and its params in a form generated from the source's
 * `params_schema`. Needs the placeholder schema with `expand=sources`.
 */
export function BindingsEditor({
  slots,
  value,
  onChange,
  sourceErrors,
  paramsErrors,
}: {
  slots: Slot[];
  value: Bindings;
  onChange: (next: Bindings) => void;
  sourceErrors: Record<string, string>;
  paramsErrors: Record<string, ErrorSchema>;
}) {
  return (
    <Stack gap="sm">
      {slots.map((slot) => (
        <SlotEditor
          key={slot.name}
          slot={slot}
          binding={value[slot.name]}
          sourceError={sourceErrors[slot.name]}
          paramsError={paramsErrors[slot.name]}
          onChange={(binding) => {
            const next = { ...value };
            if (binding) next[slot.name] = binding;
            else delete next[slot.name];
            onChange(next);
          }}
        />
      ))}
    </Stack>
  );
}

function SlotEditor({
  slot,
  binding,
  onChange,
  sourceError,
  paramsError,
}: {
  slot: Slot;
  binding: Binding | undefined;
  onChange: (binding: Binding | undefined) => void;
  sourceError: string | undefined;
  paramsError: ErrorSchema | undefined;
}) {
  const sources = slot.sources ?? [];
  const titleOf = (id: string) => sources.find((s) => s.id === id)?.title ?? id;
  const source = binding ? sources.find((s) => s.id === binding.source) : undefined;
  const stub = source?.result_type.stub;
  const fallback = slot.default ? `The block’s default: ${titleOf(slot.default.source)}` : 'None: the slot stays empty';
  return (
    <Fieldset legend={`Live data: ${slot.name}`}>
      <Stack gap="xs">
        <NativeSelect
          id={sourceId(slot.name)}
          label="Source"
          description="Where the published page takes this data from"
          value={binding?.source ?? ''}
          error={sourceError}
          data={[
            { value: '', label: fallback },
            ...slot.allowed_sources.map((id) => ({ value: id, label: `${titleOf(id)} (${id})` })),
            // A stored source the slot no longer allows stays visible, so that its refusal can be read and fixed.
            ...(binding && !slot.allowed_sources.includes(binding.source)
              ? [{ value: binding.source, label: `${binding.source} (not allowed)` }]
              : []),
          ]}
          onChange={(event) => {
            const id = event.currentTarget.value;
            if (!id) return onChange(undefined);
            const params = slot.default?.source === id ? (slot.default.params ?? {}) : {};
            onChange({ source: id, params: params });
          }}
        />
        {binding && source && (
          <SchemaForm
            tagName="div"
            idPrefix={paramsIdPrefix(slot.name)}
            schema={{ title: 'Parameters', ...(source.params_schema as RJSFSchema) }}
            validator={validator}
            formData={binding.params}
            extraErrors={paramsError}
            showErrorList={false}
            noHtml5Validate
            onChange={({ formData }) =>
              onChange({ source: binding.source, params: formData as Record<string, unknown> })
            }
          >
            <></>
          </SchemaForm>
        )}
        {binding && !source && (
          <Text size="sm" c="red">
            Unknown source “{binding.source}”: choose one of the allowed sources.
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {Array.isArray(stub)
            ? `Previews show ${stub.length} sample item${stub.length === 1 ? '' : 's'} here, never live data.`
            : 'Previews show sample data here, never live data.'}
        </Text>
      </Stack>
    </Fieldset>
  );
}
