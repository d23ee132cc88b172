import { Alert, Tabs } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { CodeEditor } from './code-editor';
import { FieldEditor, newKey, type EditorField } from './field-editor';
import type { FieldDefinition } from './field-types';

export type FieldsView = 'visual' | 'json';

/**
 * The block's fields in two views of the same list: the visual editor and
 * the raw JSON. A change in either is the other's content; JSON that does not
 * parse stays as typed, with its error, until it does.
 */
export function FieldsPanel({
  fields,
  onChange,
  errors,
  view,
  onViewChange,
}: {
  fields: EditorField[];
  onChange: (fields: EditorField[]) => void;
  errors: Record<string, unknown>;
  view: FieldsView;
  onViewChange: (view: FieldsView) => void;
}) {
  const api = useApi();
  const sources = useQuery({
    queryKey: ['data-sources'],
    queryFn: () => unwrap(api.GET('/api/data-sources', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const resultTypes = useQuery({
    queryKey: ['data-result-types'],
    queryFn: () => unwrap(api.GET('/api/data-result-types', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const [json, setJson] = useState<{ text: string; error: string | null } | null>(null);
  const shownJson = json?.text ?? stringify(fields);

  const editJson = (text: string) => {
    const parsed = parseFields(text);
    if (typeof parsed === 'string') return setJson({ text, error: parsed });
    setJson({ text, error: null });
    // A field keeps its identity by position, so a name changed in the JSON is a rename, not a removal.
    onChange(parsed.map((def, i) => ({ key: fields[i]?.key ?? newKey(), original: fields[i]?.original ?? null, def })));
  };

  return (
    <Tabs
      value={view}
      onChange={(value) => {
        setJson(null); // the JSON view starts from the list as it is now
        onViewChange((value as FieldsView) ?? 'visual');
      }}
      keepMounted={false}
    >
      <Tabs.List aria-label="Field views">
        <Tabs.Tab value="visual">Visual editor</Tabs.Tab>
        <Tabs.Tab value="json">JSON</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="visual" pt="sm">
        <FieldEditor
          fields={fields}
          onChange={onChange}
          errors={errors}
          sources={(sources.data?.data ?? []).map((s) => ({ value: s.id, label: `${s.title} (${s.id})` }))}
          resultTypes={(resultTypes.data?.data ?? []).map((r) => ({ value: r.id, label: `${r.title} (${r.id})` }))}
        />
      </Tabs.Panel>
      <Tabs.Panel value="json" pt="sm">
        <CodeEditor
          label="Fields as JSON"
          description="An array of field definitions: name, type, label, required, default and the constraints of the type."
          language="json"
          value={shownJson}
          onChange={editJson}
          error={json?.error ?? undefined}
          path="schema_content"
          minHeight="16rem"
        />
        {json?.error && (
          <Alert color="yellow" mt="xs" role="status">
            The visual editor keeps the last fields that parsed until the JSON is valid again.
          </Alert>
        )}
      </Tabs.Panel>
    </Tabs>
  );
}

export const stringify = (fields: EditorField[]) =>
  JSON.stringify(
    fields.map((f) => f.def),
    null,
    2,
  );

/** The fields in `text`, or why they are not. */
function parseFields(text: string): FieldDefinition[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `This is not valid JSON: ${(error as Error).message}`;
  }
  if (!Array.isArray(value)) return 'The fields are a JSON array: [ { "name": …, "type": … }, … ].';
  const bad = value.findIndex((item) => typeof item !== 'object' || item === null || Array.isArray(item));
  if (bad >= 0) return `Item ${bad + 1} is not an object.`;
  return value as FieldDefinition[];
}
