import { Button, Group, Stack, Text } from '@mantine/core';
import { moveTo } from '../page-editor/use-page-blocks';
import { FieldRow } from './field-row';
import { freshName, newRowKey, type Choice, type FieldDefinition } from './field-types';

/**
 * One field as the editor holds it: `key` identifies it across renames and
 * moves, `original` is its name in the saved revision (null for a new one),
 * so a rename can be told from a removal before saving.
 */
export interface EditorField {
  key: string;
  original: string | null;
  def: FieldDefinition;
}

/** A key no row has had yet. */
export const newKey = newRowKey;

export const toEditorFields = (defs: FieldDefinition[]): EditorField[] =>
  defs.map((def) => ({ key: newKey(), original: typeof def.name === 'string' ? def.name : null, def }));

/**
 * The visual editor of a block's fields: add, remove, rename, reorder (Move
 * up/down buttons), type, label, required, default and the constraints of
 * each type, and the same for the fields of objects and the items of arrays,
 * at any depth the service takes. Every input carries the server path of what
 * it edits (`schema_content.2.fields.0.name`), so a refusal lands next to it.
 */
export function FieldEditor({
  fields,
  onChange,
  errors,
  sources,
  resultTypes,
}: {
  fields: EditorField[];
  onChange: (fields: EditorField[]) => void;
  errors: Record<string, unknown>;
  sources: Choice[];
  resultTypes: Choice[];
}) {
  const update = (index: number, def: FieldDefinition) =>
    onChange(fields.map((field, i) => (i === index ? { ...field, def } : field)));
  const move = (from: number, to: number) => onChange(moveTo(fields, from, to));
  const add = () =>
    onChange([
      ...fields,
      { key: newKey(), original: null, def: { name: freshName(fields.map((f) => f.def)), type: 'string' } },
    ]);

  return (
    <Stack gap="sm">
      {fields.length === 0 && <Text size="sm">No fields yet: the block takes no values.</Text>}
      {fields.map((field, index) => {
        const shown = typeof field.def.name === 'string' && field.def.name ? field.def.name : `field ${index + 1}`;
        return (
          <FieldRow
            key={field.key}
            at={`schema_content.${index}`}
            depth={1}
            label={shown}
            heading={`Field ${index + 1}: ${shown}`}
            def={field.def}
            fresh={field.original === null}
            errors={errors}
            sources={sources}
            resultTypes={resultTypes}
            onChange={(def) => update(index, def)}
            place={{
              index,
              count: fields.length,
              onMove: (to) => move(index, to),
              onRemove: () => onChange(fields.filter((_, i) => i !== index)),
            }}
          />
        );
      })}
      <Group>
        <Button variant="light" onClick={add}>
          Add a field
        </Button>
      </Group>
    </Stack>
  );
}
