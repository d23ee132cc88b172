import { Alert, Button, Drawer, Group, Stack, Text } from '@mantine/core';
import Form from '@rjsf/core';
import type { ErrorSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { ErrorSummary } from '../../forms/error-summary';
import { placeServerErrors } from './server-error-schema';
import type { Instance } from './use-page-blocks';

/**
 * A side panel with a form generated from the block's placeholder schema,
 * saved as the instance's `placeholder_values`. The service's refusals land on
 * their fields and the first gets focus; the rest go to a summary.
 */
export function ValuesDrawer({
  pageId,
  instance,
  onClose,
  onSaved,
}: {
  pageId: number;
  instance: Instance | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <Drawer
      opened={instance !== null}
      onClose={onClose}
      title={instance ? `Values of “${instance.block.name}”` : ''}
      position="right"
      size="lg"
    >
      {instance && <ValuesForm key={instance.id} pageId={pageId} instance={instance} onSaved={onSaved} />}
    </Drawer>
  );
}

function ValuesForm({ pageId, instance, onSaved }: { pageId: number; instance: Instance; onSaved: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  // The rjsf form's box: its fields are found by their rjsf ids (`root_title`).
  const formRef = useRef<HTMLDivElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const [values, setValues] = useState<Record<string, unknown>>(instance.placeholder_values);
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>();
  const [summary, setSummary] = useState<string[]>([]);
  const [focus, setFocus] = useState<{ id: string | null } | undefined>();

  const contract = useQuery({
    queryKey: ['placeholder-schema', instance.block.id],
    queryFn: () =>
      unwrap(api.GET('/api/blocks/{id}/placeholder-schema', { params: { path: { id: instance.block.id } } })),
  });
  const save = useMutation({
    mutationFn: (placeholder_values: Record<string, unknown>) =>
      unwrap(
        api.PUT('/api/pages/{pageId}/blocks/{pbId}', {
          params: { path: { pageId, pbId: instance.id } },
          body: { placeholder_values },
        }),
      ),
    onSuccess: async () => {
      onSaved();
      await queryClient.invalidateQueries({ queryKey: ['page', pageId] });
    },
    onError: (error) => {
      const field = (id: string) => formRef.current?.querySelector(`[id="${id}"]`) != null;
      const placed = placeServerErrors(error, 'placeholder_values', field);
      setExtraErrors(placed.ids.length ? placed.schema : undefined);
      setSummary(placed.summary);
      setFocus({ id: placed.ids[0] ?? null });
    },
  });

  // Focused once the messages are rendered, so that a screen reader reads the field with its message.
  useEffect(() => {
    if (!focus) return;
    const node = focus.id ? formRef.current?.querySelector<HTMLElement>(`[id="${focus.id}"]`) : null;
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
  return (
    <Stack>
      <ErrorSummary ref={summaryRef} messages={summary} />
      {save.isSuccess && (
        <Alert color="green" role="status">
          Saved. The preview shows the new values.
        </Alert>
      )}
      <div ref={formRef}>
        <Form
          schema={contract.data.schema}
          validator={validator}
          formData={values}
          extraErrors={extraErrors}
          showErrorList={false}
          noHtml5Validate
          focusOnFirstError
          onChange={({ formData }) => {
            setValues(formData as Record<string, unknown>);
            if (save.isSuccess) save.reset();
          }}
          onSubmit={({ formData }) => {
            setExtraErrors(undefined);
            setSummary([]);
            save.mutate(formData as Record<string, unknown>);
          }}
        >
          <Group justify="flex-end" mt="md">
            <Button type="submit" loading={save.isPending}>
              Save values
            </Button>
          </Group>
        </Form>
      </div>
    </Stack>
  );
}
