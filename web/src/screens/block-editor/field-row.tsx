import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { FIELD_TYPES, type Choice, type FieldDefinition } from './field-types';

/** Keys each field type must not carry (the service refuses them), dropped when the type changes. */
const TYPE_KEYS = ['options', 'items', 'fields', 'allowed_sources', 'result_type', 'min_items', 'max_items'];
const STARTER: Record<string, FieldDefinition> = {
  select: { options: ['first'] },
  array: { items: { type: 'string' } },
  object: { fields: [] },
  binding: { allowed_sources: [] },
};
const TEXTUAL = new Set(['string', 'text', 'richtext', 'url', 'image', 'color', 'date']);

function withType(def: FieldDefinition, type: string): FieldDefinition {
  const next: FieldDefinition = { ...def, type };
  for (const key of [...TYPE_KEYS, 'default', 'min', 'max', 'min_length', 'max_length', 'pattern']) delete next[key];
  return { ...next, ...STARTER[type] };
}

function withKey(def: FieldDefinition, key: string, value: unknown): FieldDefinition {
  const next = { ...def };
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0 && key !== 'allowed_sources'))
    delete next[key];
  else next[key] = value;
  return next;
}

export function FieldRow({
  index,
  count,
  def,
  errors,
  sources,
  resultTypes,
  onChange,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  def: FieldDefinition;
  errors: Record<string, unknown>;
  sources: Choice[];
  resultTypes: Choice[];
  onChange: (def: FieldDefinition) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const at = `schema_content.${index}`;
  const name = typeof def.name === 'string' ? def.name : '';
  const type = typeof def.type === 'string' ? def.type : 'string';
  const shown = name || `field ${index + 1}`;
  const err = (key: string) => (errors[`${at}.${key}`] as string | undefined) ?? undefined;
  const str = (key: string) => (typeof def[key] === 'string' ? def[key] : '');
  const num = (key: string) => (typeof def[key] === 'number' ? def[key] : '');
  const set = (key: string, value: unknown) => onChange(withKey(def, key, value));
  const setNumber = (key: string) => (value: string | number) => set(key, value === '' ? undefined : Number(value));
  const titleId = `${at}-title`;

  return (
    <Paper withBorder p="sm" component="fieldset" aria-labelledby={titleId} style={{ margin: 0 }}>
      <Group justify="space-between" wrap="wrap" mb="xs">
        <Title order={3} size="h5" id={titleId}>
          Field {index + 1}: {shown}
        </Title>
        <Group gap={4}>
          <ActionIcon
            variant="default"
            aria-label={`Move ${shown} up`}
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
          >
            ↑
          </ActionIcon>
          <ActionIcon
            variant="default"
            aria-label={`Move ${shown} down`}
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
          >
            ↓
          </ActionIcon>
          <Button size="xs" variant="subtle" color="red" onClick={onRemove} aria-label={`Remove ${shown}`}>
            Remove
          </Button>
        </Group>
      </Group>
      {err('') && (
        <Text c="red" size="sm" role="alert">
          {err('')}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="Field name"
          description="The key in the values and the template: a–z, 0–9, _"
          value={name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={err('name')}
          data-path={`${at}.name`}
          required
        />
        <Select
          label="Type"
          data={[...FIELD_TYPES]}
          value={type}
          onChange={(value) => value && onChange(withType(def, value))}
          error={err('type')}
          data-path={`${at}.type`}
          allowDeselect={false}
        />
        <TextInput
          label="Label"
          value={str('label')}
          onChange={(e) => set('label', e.currentTarget.value)}
          error={err('label')}
          data-path={`${at}.label`}
        />
        <TextInput
          label="Help text"
          value={str('description')}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={err('description')}
          data-path={`${at}.description`}
        />
      </SimpleGrid>
      <Checkbox
        mt="sm"
        label="Required"
        checked={def.required === true}
        onChange={(e) => set('required', e.currentTarget.checked ? true : undefined)}
        error={err('required')}
        data-path={`${at}.required`}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="sm">
        {type !== 'binding' && (
          <DefaultInput type={type} def={def} error={err('default')} path={`${at}.default`} onChange={set} />
        )}
        {type === 'select' && (
          <TagsInput
            label="Options"
            description="Press Enter after each"
            value={Array.isArray(def.options) ? (def.options as string[]) : []}
            onChange={(value) => set('options', value)}
            error={err('options')}
            data-path={`${at}.options`}
          />
        )}
        {(type === 'number' || type === 'integer') && (
          <>
            <NumberInput
              label="Minimum"
              value={num('min')}
              onChange={setNumber('min')}
              error={err('min')}
              data-path={`${at}.min`}
            />
            <NumberInput
              label="Maximum"
              value={num('max')}
              onChange={setNumber('max')}
              error={err('max')}
              data-path={`${at}.max`}
            />
          </>
        )}
        {(type === 'string' || type === 'text') && (
          <>
            <NumberInput
              label="Shortest length"
              min={0}
              value={num('min_length')}
              onChange={setNumber('min_length')}
              error={err('min_length')}
              data-path={`${at}.min_length`}
            />
            <NumberInput
              label="Longest length"
              min={0}
              value={num('max_length')}
              onChange={setNumber('max_length')}
              error={err('max_length')}
              data-path={`${at}.max_length`}
            />
            <TextInput
              label="Pattern"
              description="A regular expression (RE2)"
              value={str('pattern')}
              onChange={(e) => set('pattern', e.currentTarget.value)}
              error={err('pattern')}
              data-path={`${at}.pattern`}
            />
          </>
        )}
        {type === 'array' && (
          <>
            <Select
              label="Type of each item"
              data={FIELD_TYPES.filter((t) => t !== 'binding')}
              value={
                typeof (def.items as FieldDefinition | undefined)?.type === 'string'
                  ? ((def.items as FieldDefinition).type as string)
                  : null
              }
              onChange={(value) => value && set('items', withType((def.items as FieldDefinition) ?? {}, value))}
              error={err('items.type') ?? err('items')}
              data-path={`${at}.items.type`}
              allowDeselect={false}
            />
            <NumberInput
              label="Fewest items"
              min={0}
              value={num('min_items')}
              onChange={setNumber('min_items')}
              error={err('min_items')}
              data-path={`${at}.min_items`}
            />
            <NumberInput
              label="Most items"
              min={0}
              value={num('max_items')}
              onChange={setNumber('max_items')}
              error={err('max_items')}
              data-path={`${at}.max_items`}
            />
          </>
        )}
        {type === 'binding' && (
          <>
            <MultiSelect
              label="Allowed data sources"
              data={sources}
              value={Array.isArray(def.allowed_sources) ? (def.allowed_sources as string[]) : []}
              onChange={(value) => set('allowed_sources', value)}
              error={err('allowed_sources')}
              data-path={`${at}.allowed_sources`}
              searchable
            />
            <Select
              label="Result type"
              data={resultTypes}
              value={str('result_type') || null}
              onChange={(value) => set('result_type', value ?? undefined)}
              error={err('result_type')}
              data-path={`${at}.result_type`}
              clearable
            />
          </>
        )}
      </SimpleGrid>
      {(type === 'object' || (type === 'array' && (def.items as FieldDefinition | undefined)?.type === 'object')) && (
        <Text size="sm" c="dimmed" mt="sm">
          {describeNested(def)} Nested fields are edited in the JSON view.
        </Text>
      )}
    </Paper>
  );
}

function describeNested(def: FieldDefinition): string {
  const list = (def.type === 'object' ? def.fields : (def.items as FieldDefinition | undefined)?.fields) as
    FieldDefinition[] | undefined;
  const names = (list ?? []).map((f) => (typeof f.name === 'string' ? f.name : '?'));
  return names.length ? `Its fields: ${names.join(', ')}.` : 'It has no fields yet.';
}

/** A default as the type takes it: text for textual types, a number, a yes/no, else JSON. */
function DefaultInput({
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
