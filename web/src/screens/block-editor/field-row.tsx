import {
  ActionIcon,
  Box,
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
  TextInput,
  Title,
} from '@mantine/core';
import { typesAt, withLabel, type FieldDefinition, type FieldRowProps } from './field-types';
import { DefaultInput } from './default-input';
import { NestedFields } from './nested-fields';

/** Keys each field type must not carry (the service refuses them), dropped when the type changes. */
const TYPE_KEYS = ['options', 'items', 'fields', 'allowed_sources', 'result_type', 'min_items', 'max_items'];
const STARTER: Record<string, FieldDefinition> = {
  select: { options: ['first'] },
  array: { items: { type: 'string' } },
  object: { fields: [] },
  binding: { allowed_sources: [] },
};

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

/**
 * One field definition: its name (items have none), type, texts, default,
 * the constraints of its type, and what it holds: an object's fields and an
 * array's items, each a row like this one, one level deeper.
 */
export function FieldRow({
  at,
  depth,
  named = true,
  label,
  heading,
  def,
  errors,
  sources,
  resultTypes,
  onChange,
  place,
  fresh = false,
}: FieldRowProps) {
  const name = typeof def.name === 'string' ? def.name : '';
  const type = typeof def.type === 'string' ? def.type : 'string';
  const shown = label;
  // The row's own path is where the service reports a definition too deep or not an object.
  const err = (key: string) => (errors[key ? `${at}.${key}` : at] as string | undefined) ?? undefined;
  const context = { errors, sources, resultTypes };
  const str = (key: string) => (typeof def[key] === 'string' ? def[key] : '');
  const num = (key: string) => (typeof def[key] === 'number' ? def[key] : '');
  const set = (key: string, value: unknown) => onChange(withKey(def, key, value));
  const setNumber = (key: string) => (value: string | number) => set(key, value === '' ? undefined : Number(value));
  const titleId = `${at}-title`;

  const types = typesAt(depth, named);
  const messageId = `${at}-message`;

  return (
    <Paper
      withBorder
      p="sm"
      component="fieldset"
      aria-labelledby={titleId}
      aria-describedby={err('') ? messageId : undefined}
      // A refusal of the definition itself (too deep) is focused here, at the path the service names.
      data-path={at}
      tabIndex={-1}
      style={{ margin: 0, minWidth: 0 }}
    >
      <Group justify="space-between" wrap="wrap" mb="xs">
        <Title order={Math.min(depth + 2, 6) as 3 | 4 | 5 | 6} size="h5" id={titleId}>
          {heading}
        </Title>
        {place && (
          <Group gap={4}>
            <ActionIcon
              variant="default"
              aria-label={`Move ${shown} up`}
              disabled={place.index === 0}
              onClick={() => place.onMove(place.index - 1)}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label={`Move ${shown} down`}
              disabled={place.index === place.count - 1}
              onClick={() => place.onMove(place.index + 1)}
            >
              ↓
            </ActionIcon>
            <Button size="xs" variant="subtle" color="red" onClick={place.onRemove} aria-label={`Remove ${shown}`}>
              Remove
            </Button>
          </Group>
        )}
      </Group>
      {err('') && (
        <Text c="red.9" size="sm" id={messageId} role="alert" mb="xs">
          {err('')}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {named && (
          <TextInput
            label="Field name"
            description="The key in the values and the template: a–z, 0–9, _"
            value={name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={err('name')}
            data-path={`${at}.name`}
            required
          />
        )}
        <Select
          label={named ? 'Type' : 'Type of each item'}
          data={types.includes(type) ? types : [...types, type]}
          value={type}
          onChange={(value) => value && onChange(withType(def, value))}
          error={err('type')}
          data-path={`${at}.type`}
          allowDeselect={false}
        />
        <TextInput
          label="Label"
          value={str('label')}
          onChange={(e) => onChange(withLabel(def, e.currentTarget.value, fresh && named))}
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
      {named && (
        <Checkbox
          mt="sm"
          label="Required"
          checked={def.required === true}
          onChange={(e) => set('required', e.currentTarget.checked ? true : undefined)}
          error={err('required')}
          data-path={`${at}.required`}
        />
      )}
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
      {type === 'object' && (
        <NestedFields
          {...context}
          Row={FieldRow}
          at={`${at}.fields`}
          depth={depth + 1}
          parent={shown}
          fields={Array.isArray(def.fields) ? (def.fields as FieldDefinition[]) : []}
          onChange={(fields) => onChange({ ...def, fields })}
        />
      )}
      {type === 'array' && (
        <Box mt="sm" pl="sm" style={{ borderLeft: '3px solid var(--mantine-color-gray-4)' }}>
          <FieldRow
            {...context}
            at={`${at}.items`}
            depth={depth + 1}
            named={false}
            label={`${shown}[]`}
            heading={`Each item of ${shown}`}
            def={isDefinition(def.items) ? def.items : { type: 'string' }}
            onChange={(items) => onChange({ ...def, items })}
          />
        </Box>
      )}
    </Paper>
  );
}

const isDefinition = (value: unknown): value is FieldDefinition =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
