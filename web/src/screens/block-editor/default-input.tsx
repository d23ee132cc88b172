import { NumberInput, Select, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { FieldDefinition } from './field-types';

const TEXTUAL = new Set(['string', 'text', 'richtext', 'url', 'image', 'color', 'date']);

/** A default as the type takes it: text for textual types, a number, a yes/no, else JSON. */
export function DefaultInput({
  type,
  def,
  error,
  path,
  onChange,
}: {
  type: string;
  def: FieldDefinition;
  error: string | undefined;
  path: string;
  onChange: (key: string, value: unknown) => void;
}) {
  const value = def.default;
  const [json, setJson] = useState(() => (value === undefined ? '' : JSON.stringify(value)));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const common = { label: 'Default', error: error ?? jsonError ?? undefined, 'data-path': path };
  if (TEXTUAL.has(type))
    return (
      <TextInput
        {...common}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange('default', e.currentTarget.value || undefined)}
      />
    );
  if (type === 'select')
    return (
      <Select
        {...common}
        data={Array.isArray(def.options) ? (def.options as string[]).filter((o) => typeof o === 'string') : []}
        value={typeof value === 'string' ? value : null}
        onChange={(v) => onChange('default', v ?? undefined)}
        clearable
      />
    );
  if (type === 'number' || type === 'integer')
    return (
      <NumberInput
        {...common}
        allowDecimal={type === 'number'}
        value={typeof value === 'number' ? value : ''}
        onChange={(v) => onChange('default', v === '' ? undefined : Number(v))}
      />
    );
  if (type === 'boolean')
    return (
      <Select
        {...common}
        data={[
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]}
        value={typeof value === 'boolean' ? String(value) : null}
        onChange={(v) => onChange('default', v === null ? undefined : v === 'true')}
        clearable
      />
    );
  return (
    <Textarea
      {...common}
      description="As JSON"
      resize="vertical"
      rows={2}
      value={json}
      onChange={(e) => setJson(e.currentTarget.value)}
      onBlur={() => {
        if (!json.trim()) {
          setJsonError(null);
          return onChange('default', undefined);
        }
        try {
          onChange('default', JSON.parse(json));
          setJsonError(null);
        } catch {
          setJsonError('This is not valid JSON.');
        }
      }}
    />
  );
}
