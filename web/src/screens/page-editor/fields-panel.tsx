import { Alert, Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { SchemaForm } from '../../forms/schema-form';
import { validator } from '../../forms/schema-validator';
import { getDefaultFormState, type RJSFSchema } from '@rjsf/utils';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { ErrorSummary } from '../../forms/error-summary';
import { textFieldsOf } from './fields/field-ui';
import { fieldTemplates, fieldWidgets, valuesUiSchema } from './fields/field-form';
import type { EditableText } from '../sandboxed-html';
import type { FieldsContext } from './fields/image-widget';
import { useSaveShortcut } from './fields/save-shortcut';
import { BindingsEditor, toBindings, type Bindings } from './bindings-editor';
import { BlockPreview } from './block-preview';
import type { InstanceDraft } from './page-preview';
import { placeInstanceErrors, type PlacedInstanceErrors } from './server-error-schema';
import type { Instance } from './use-page-blocks';

/** A value typed in place on the page; `n` counts them. */
export interface TypedText {
  field: string;
  value: string;
  n: number;
}

const noErrors: PlacedInstanceErrors = { values: {}, sources: {}, params: {}, ids: [], summary: [] };

/**
 * The Fields tab: the chosen instance's values in a form generated from the
 * block's placeholder schema (markdown content in a markdown editor), its
 * live-data bindings, and a preview of the unsaved state. The unsaved state
 * goes to `onDraft` too (null when there is none), for the page preview, and
 * whether there is one to `onDirty` (the screen asks before another block
 * takes its place). With no block chosen, it says how to choose one.
 */
export function FieldsPanel({
  pageId,
  siteId,
  typed,
  onEditable,
  instance,
  onDirty,
  onDraft,
  onSaved,
  onShowOnPage,
}: {
  pageId: number;
  /** The page's site, whose uploads an image field chooses from. */
  siteId: number | null;
  /** A value typed on the page, in place (`n` counts them, so that the same text twice still arrives). */
  typed?: TypedText | null;
  /** The chosen block's plain text fields and their values, for editing in place; null when none. */
  onEditable?: (fields: Record<string, EditableText> | null) => void;
  instance: Instance | null;
  onDirty: (dirty: boolean) => void;
  onDraft: (draft: InstanceDraft | null) => void;
  onSaved: () => void;
  /** Under 1280 px: back to the page, where the block is outlined. */
  onShowOnPage?: () => void;
}) {
  if (!instance)
    return (
      <Text size="sm" c="dimmed">
        No block chosen. Click a block on the page, or choose Edit beside it in the Blocks tab.
      </Text>
    );
  return (
    <Stack component="section" aria-label={`Edit “${instance.block.name}”`} gap="sm">
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} size="h4">
          {instance.block.name}
        </Title>
        {onShowOnPage && (
          <Button size="compact-sm" variant="default" onClick={onShowOnPage}>
            Show on page
          </Button>
        )}
      </Group>
      <InstanceForm
        key={instance.id}
        pageId={pageId}
        siteId={siteId}
        typed={typed}
        onEditable={onEditable}
        instance={instance}
        onDirty={onDirty}
        onDraft={onDraft}
        onSaved={onSaved}
      />
    </Stack>
  );
}

function InstanceForm({
  pageId,
  siteId,
  typed,
  onEditable,
  instance,
  onDirty,
  onDraft,
  onSaved,
}: {
  pageId: number;
  siteId: number | null;
  typed?: TypedText | null;
  onEditable?: (fields: Record<string, EditableText> | null) => void;
  instance: Instance;
  onDirty: (dirty: boolean) => void;
  onDraft: (draft: InstanceDraft | null) => void;
  onSaved: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  // The panel's box: its controls are found by their ids (`root_title`, `bindings_feed_source`).
  const boxRef = useRef<HTMLDivElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const [saved, setSaved] = useState(() => ({
    values: instance.placeholder_values,
    bindings: toBindings(instance.bindings),
  }));
  const [values, setValues] = useState<Record<string, unknown>>(saved.values);
  const [bindings, setBindings] = useState<Bindings>(saved.bindings);
  const [errors, setErrors] = useState<PlacedInstanceErrors>(noErrors);
  const [focus, setFocus] = useState<{ id: string | null } | undefined>();
  // Gone with the form (another block chosen): nothing unsaved remains.
  useEffect(() => () => onDirty(false), [onDirty]);
  useEffect(() => () => onDraft(null), [onDraft]);

  // The contract of the revision the instance is pinned to, which the service
  // checks its values against until it is upgraded, not the block's current one.
  const version = `${instance.version.major}.${instance.version.minor}`;
  const contract = useQuery({
    queryKey: ['placeholder-schema', instance.block.id, version, 'sources'],
    queryFn: () =>
      unwrap(
        api.GET('/api/blocks/{id}/placeholder-schema', {
          params: { path: { id: instance.block.id }, query: { expand: 'sources', version } },
        }),
      ),
  });
  const slots = contract.data?.binding_slots ?? [];
  // The saved values as the form shows them: the schema's defaults filled in where a value is missing, as
  // rjsf fills them. Compared with this, a block opens clean (no "Unsaved changes" for a default or a
  // boolean before any keystroke), and the form's values start from it, so no input is ever undefined
  // and then defined (React's uncontrolled → controlled warning).
  const schema = contract.data?.schema;
  const baseline = useMemo(() => (schema ? withDefaults(schema, saved.values) : saved.values), [schema, saved.values]);
  const [seeded, setSeeded] = useState<RJSFSchema | undefined>(undefined);
  if (schema && seeded !== schema) {
    setSeeded(schema);
    setValues((current) => withDefaults(schema, current));
  }
  const dirty = JSON.stringify([values, bindings]) !== JSON.stringify([baseline, saved.bindings]);
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  const body = () => ({
    placeholder_values: values,
    // Bindings only for blocks with slots (a static block refuses them); none chosen clears them.
    ...(slots.length ? { bindings: Object.keys(bindings).length ? bindings : null } : {}),
  });
  // By its text, so that the page hears of a change only when there is one.
  const draft = dirty ? JSON.stringify({ id: instance.id, ...body() }) : null;
  useEffect(() => onDraft(draft === null ? null : (JSON.parse(draft) as InstanceDraft)), [draft, onDraft]);
  const save = useMutation({
    mutationFn: (input: ReturnType<typeof body>) =>
      unwrap(
        api.PUT('/api/pages/{pageId}/blocks/{pbId}', {
          params: { path: { pageId, pbId: instance.id } },
          body: input,
        }),
      ),
    onSuccess: async (page, input) => {
      // The answer is the page as saved: the preview renders it once, the draft gone in the same update.
      if (page?.blocks) queryClient.setQueryData(['page', pageId], page);
      setSaved({ values: input.placeholder_values, bindings: toBindings(input.bindings) });
      onSaved();
      await queryClient.invalidateQueries({ queryKey: ['page', pageId] });
    },
    onError: (error) => {
      const placed = placeInstanceErrors(error, (id) => boxRef.current?.querySelector(`[id="${id}"]`) != null);
      setErrors(placed);
      setFocus({ id: placed.ids[0] ?? null });
    },
  });

  // In place: what the page's box sends lands in the form as typing there would (unsaved until saved).
  const lastTyped = useRef(typed?.n ?? 0);
  useEffect(() => {
    if (!typed || typed.n === lastTyped.current) return;
    lastTyped.current = typed.n;
    setValues((current) => ({ ...current, [typed.field]: typed.value }));
    if (save.isSuccess) save.reset();
  }, [typed, save]);
  const editableKey = contract.data ? JSON.stringify(textFieldsOf(contract.data.schema, values)) : 'null';
  useEffect(() => {
    onEditable?.(JSON.parse(editableKey) as Record<string, EditableText> | null);
  }, [editableKey, onEditable]);
  useEffect(() => () => onEditable?.(null), [onEditable]);

  // Ctrl/Cmd+S saves the form as its Save button does (the browser would save the app's page).
  useSaveShortcut(boxRef);

  // Focused once the messages are rendered, so that a screen reader reads the field with its message.
  useEffect(() => {
    if (!focus) return;
    const node = focus.id ? boxRef.current?.querySelector<HTMLElement>(`[id="${focus.id}"]`) : null;
    (node ?? summaryRef.current)?.focus();
    setFocus(undefined);
  }, [focus]);

  if (contract.isPending) return <Text c="dimmed">Loading the block’s fields…</Text>;
  if (contract.isError)
    return (
      <Alert color="red" role="alert" title="Cannot load the block’s fields">
        {errorMessage(contract.error)}
      </Alert>
    );
  const uiSchema = valuesUiSchema(contract.data);
  const edited = () => {
    if (save.isSuccess) save.reset();
  };
  return (
    <Stack ref={boxRef}>
      <ErrorSummary ref={summaryRef} messages={errors.summary} />
      <SchemaForm
        schema={contract.data.schema}
        uiSchema={uiSchema}
        widgets={fieldWidgets}
        templates={fieldTemplates}
        formContext={{ siteId } satisfies FieldsContext}
        validator={validator}
        formData={values}
        extraErrors={Object.keys(errors.values).length ? errors.values : undefined}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
        onChange={({ formData }) => {
          setValues(formData as Record<string, unknown>);
          edited();
        }}
        onSubmit={() => {
          setErrors(noErrors);
          save.mutate(body());
        }}
      >
        {slots.length > 0 && (
          <Stack gap="xs" mt="md">
            <Title order={3} size="h5">
              Live data
            </Title>
            <BindingsEditor
              slots={slots}
              value={bindings}
              sourceErrors={errors.sources}
              paramsErrors={errors.params}
              onChange={(next) => {
                setBindings(next);
                edited();
              }}
            />
          </Stack>
        )}
        <Group justify="space-between" mt="md">
          <Text size="sm" c="dimmed" aria-live="polite">
            {save.isPending ? 'Saving…' : dirty ? 'Unsaved changes' : save.isSuccess ? '' : 'No unsaved changes'}
          </Text>
          <Group gap="xs">
            {dirty && !save.isPending && (
              <Button
                variant="default"
                onClick={() => {
                  setValues(baseline);
                  setBindings(saved.bindings);
                  setErrors(noErrors);
                }}
              >
                Discard changes
              </Button>
            )}
            <Button type="submit" loading={save.isPending}>
              Save changes
            </Button>
          </Group>
        </Group>
      </SchemaForm>
      {save.isSuccess && !dirty && (
        <Alert color="green" role="status">
          Saved. The page preview shows the new version.
        </Alert>
      )}
      <Divider />
      <BlockPreview pageId={pageId} instanceId={instance.id} input={body()} />
    </Stack>
  );
}

/** Values with the schema's defaults where none is given, as rjsf's form fills them. */
function withDefaults(schema: RJSFSchema, values: Record<string, unknown>): Record<string, unknown> {
  return getDefaultFormState(validator, schema, values, schema) as Record<string, unknown>;
}
