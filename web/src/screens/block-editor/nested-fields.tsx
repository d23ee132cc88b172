import { Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useRef, type ComponentType } from 'react';
import { moveTo } from '../page-editor/use-page-blocks';
import {
  freshName,
  MAX_FIELD_DEPTH,
  newRowKey,
  type FieldDefinition,
  type FieldRowProps,
  type RowContext,
} from './field-types';

/**
 * The fields of an object field: added, edited, reordered and removed like the
 * block's own, one level deeper. The definitions carry no identity of their
 * own (the JSON view shows them as they are), so each row's key is kept here
 * by position and moved with it. Each field is a `Row` (FieldRow, which
 * renders this list for an object field: given, not imported, so that the two
 * files import each other in no direction but one).
 */
export function NestedFields({
  at,
  depth,
  parent,
  fields,
  onChange,
  Row,
  ...context
}: RowContext & {
  /** The form path of the list: `schema_content.2.fields`. */
  at: string;
  /** The depth of the fields of this list. */
  depth: number;
  /** The object field in the notation of removed fields (`author`, `items[]`). */
  parent: string;
  fields: FieldDefinition[];
  onChange: (fields: FieldDefinition[]) => void;
  /** The row of one field. */
  Row: ComponentType<FieldRowProps>;
}) {
  const keys = useRef<string[]>([]);
  // The rows added here in this session: their names follow their labels (withLabel).
  const added = useRef(new Set<string>());
  // Fields added or removed elsewhere (the JSON view) get keys, or lose them, at the end.
  if (keys.current.length !== fields.length) keys.current = fields.map((_, i) => keys.current[i] ?? newRowKey());
  const change = (next: FieldDefinition[], nextKeys: string[]) => {
    keys.current = nextKeys;
    onChange(next);
  };
  const titleId = `${at}-title`;
  const tooDeep = depth > MAX_FIELD_DEPTH;

  return (
    <Box
      component="section"
      aria-labelledby={titleId}
      mt="sm"
      pl="sm"
      style={{ borderLeft: '3px solid var(--mantine-color-gray-4)' }}
    >
      <Title order={Math.min(depth + 2, 6) as 3 | 4 | 5 | 6} size="h6" id={titleId} mb="xs">
        Fields of {parent}
      </Title>
      <Stack gap="sm">
        {fields.length === 0 && <Text size="sm">No fields yet: add the first one.</Text>}
        {fields.map((def, index) => {
          const shown = typeof def.name === 'string' && def.name ? def.name : `field ${index + 1}`;
          return (
            <Row
              {...context}
              key={keys.current[index]}
              at={`${at}.${index}`}
              depth={depth}
              label={`${parent}.${shown}`}
              heading={`Field ${index + 1} of ${parent}: ${shown}`}
              def={def}
              fresh={added.current.has(keys.current[index]!)}
              onChange={(next) =>
                change(
                  fields.map((f, i) => (i === index ? next : f)),
                  keys.current,
                )
              }
              place={{
                index,
                count: fields.length,
                onMove: (to) => change(moveTo(fields, index, to), moveTo(keys.current, index, to)),
                onRemove: () =>
                  change(
                    fields.filter((_, i) => i !== index),
                    keys.current.filter((_, i) => i !== index),
                  ),
              }}
            />
          );
        })}
        <Group>
          {tooDeep ? (
            <Text size="sm">Fields nest at most {MAX_FIELD_DEPTH} levels deep: this object cannot hold more.</Text>
          ) : (
            <Button
              variant="light"
              size="xs"
              onClick={() => {
                const key = newRowKey();
                added.current.add(key);
                change([...fields, { name: freshName(fields), type: 'string' }], [...keys.current, key]);
              }}
            >
              Add a field to {parent}
            </Button>
          )}
        </Group>
      </Stack>
    </Box>
  );
}
