import { Alert, Button, Divider, Drawer, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { SchemaForm } from '../../forms/schema-form';
import { validator } from '../../forms/schema-validator';
import type { UiSchema } from '@rjsf/utils';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { ErrorSummary } from '../../forms/error-summary';
import { useUnsavedChanges } from '../../forms/unsaved-changes';
import { BindingsEditor, toBindings, type Bindings } from './bindings-editor';
import { BlockPreview } from './block-preview';
import { MarkdownWidget } from './markdown-widget';
import type { InstanceDraft } from './page-preview';
import { placeInstanceErrors, type PlacedInstanceErrors } from './server-error-schema';
import type { Instance } from './use-page-blocks';

const widgets = { markdown: MarkdownWidget };
const noErrors: PlacedInstanceErrors = { values: {}, sources: {}, params: {}, ids: [], summary: [] };

/**
 * A side panel that edits one instance: its values in a form generated from
 * the block's placeholder schema (markdown content in a markdown editor), its
 * live-data bindings, and a preview of the unsaved state. The unsaved state
 * goes to `onDraft` too (null when there is none), for the page preview.
 * Closing it with unsaved changes asks first.
 */
export function InstanceDrawer({
  pageId,
  instance,
  onClose,
  onDraft,
}: {
  pageId: number;
  instance: Instance | null;
  onClose: () => void;
  onDraft: (draft: InstanceDraft | null) => void;
}) {
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  useUnsavedChanges(instance !== null && dirty);
  const close = () => {
    setAsking(false);
    setDirty(false);
    onDraft(null);
    onClose();
  };
  return (
    <>
      <Drawer
        opened={instance !== null}
        onClose={() => (dirty ? setAsking(true) : close())}
        title={instance ? `Edit “${instance.block.name}”` : ''}
        position="right"
        size="xl"
        closeButtonProps={{ 'aria-label': 'Close the panel' }}
      >
        {instance && (
          <InstanceForm key={instance.id} pageId={pageId} instance={instance} onDirty={setDirty} onDraft={onDraft} />
        )}
      </Drawer>
      <Modal opened={asking} onClose={() => setAsking(false)} title="Discard unsaved changes?" zIndex={1000}>
        <Stack>
          <Text>The changes to “{instance?.block.name}” are not saved. Closing the panel discards them.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)} data-autofocus>
              Keep editing
            </Button>
            <Button color="red" onClick={close}>
              Discard changes
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function InstanceForm({
  pageId,
  instance,
  onDirty,
  onDraft,
}: {
  pageId: number;
  instance: Instance;
  onDirty: (dirty: boolean) => void;
  onDraft: (draft: InstanceDraft | null) => void;
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
  const dirty = JSON.stringify([values, bindings]) !== JSON.stringify([saved.values, saved.bindings]);
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

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
      await queryClient.invalidateQueries({ queryKey: ['page', pageId] });
    },
    onError: (error) => {
      const placed = placeInstanceErrors(error, (id) => boxRef.current?.querySelector(`[id="${id}"]`) != null);
      setErrors(placed);
      setFocus({ id: placed.ids[0] ?? null });
    },
  });

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
  const uiSchema: UiSchema =
    contract.data.block_type === 'markdown'
      ? { _markdown: { 'ui:widget': 'markdown', 'ui:title': 'Content' }, 'ui:order': ['_markdown', '*'] }
      : {};
  const edited = () => {
    if (save.isSuccess) save.reset();
  };
  return (
    <Stack ref={boxRef}>
      <ErrorSummary ref={summaryRef} messages={errors.summary} />
      <SchemaForm
        schema={contract.data.schema}
        uiSchema={uiSchema}
        widgets={widgets}
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
          <Button type="submit" loading={save.isPending}>
            Save changes
          </Button>
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
