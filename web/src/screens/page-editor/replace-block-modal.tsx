import { Alert, Button, Code, Group, List, Modal, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { SchemaForm } from '../../forms/schema-form';
import { validator } from '../../forms/schema-validator';
import type { ErrorSchema } from '@rjsf/utils';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { ApiError, errorMessage } from '../../api/errors';
import { ErrorSummary } from '../../forms/error-summary';
import { fieldTemplates, fieldWidgets, valuesUiSchema } from './fields/field-form';
import type { FieldsContext } from './fields/image-widget';
import { keptValues, lostValues, showValue } from './removed-values';
import { placeServerErrors } from './server-error-schema';
import type { Instance } from './use-page-blocks';

export interface Version {
  major: number;
  minor: number;
}
export const versionText = (v: Version) => `${v.major}.${v.minor}`;

/** What an upgrade of the instance would do, asked without writing (dry run): the fields it would remove. */
interface UpgradePlan {
  removed_fields: string[];
  library_version: Version | null;
}

/**
 * The replace flow of a major change: which fields the new version removes and
 * the values that go with them, a form from the new placeholder schema
 * (prefilled with what can be kept), drawn with the Fields tab's widgets
 * (multi-line text, rich text, colour picker, media library, list cards),
 * and `PUT …/replace` on confirmation. The service's refusals land on their fields.
 */
export function ReplaceBlockModal({
  pageId,
  siteId,
  instance,
  onClose,
  onReplaced,
}: {
  pageId: number;
  /** The page's site, whose uploads an image field chooses from. */
  siteId: number | null;
  instance: Instance | null;
  onClose: () => void;
  onReplaced: () => void;
}) {
  const narrow = useMediaQuery('(max-width: 40em)');
  return (
    <Modal
      opened={instance !== null}
      onClose={onClose}
      size="lg"
      fullScreen={narrow}
      title={instance ? `Replace “${instance.block.name}” with its new version` : ''}
    >
      {instance && (
        <ReplaceForm
          key={instance.id}
          pageId={pageId}
          siteId={siteId}
          instance={instance}
          onClose={onClose}
          onReplaced={onReplaced}
        />
      )}
    </Modal>
  );
}

function ReplaceForm({
  pageId,
  siteId,
  instance,
  onClose,
  onReplaced,
}: {
  pageId: number;
  siteId: number | null;
  instance: Instance;
  onClose: () => void;
  onReplaced: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLDivElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const [values, setValues] = useState<Record<string, unknown> | undefined>();
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>();
  const [summary, setSummary] = useState<string[]>([]);
  const [focus, setFocus] = useState<{ id: string | null } | undefined>();

  const plan = useQuery({
    queryKey: ['page', pageId, 'upgrade-plan', instance.id],
    queryFn: async (): Promise<UpgradePlan> => {
      const { data, error, response } = await api.POST('/api/pages/{pageId}/blocks/{pbId}/upgrade', {
        params: { path: { pageId, pbId: instance.id }, query: { dry_run: 1 } },
      });
      if (response.ok && data) return { removed_fields: [], library_version: null };
      const body = error as { removed_fields?: unknown; library_version?: Version } | undefined;
      if (response.status === 422 && Array.isArray(body?.removed_fields))
        return { removed_fields: body.removed_fields as string[], library_version: body.library_version ?? null };
      // Refused for missing new values: nothing is removed, the form asks for them.
      if (response.status === 422) return { removed_fields: [], library_version: null };
      throw new ApiError(response.status, error);
    },
    staleTime: 0,
    gcTime: 0,
  });
  const contract = useQuery({
    queryKey: ['placeholder-schema', instance.block.id],
    queryFn: () =>
      unwrap(api.GET('/api/blocks/{id}/placeholder-schema', { params: { path: { id: instance.block.id } } })),
  });
  const replace = useMutation({
    mutationFn: (placeholder_values: Record<string, unknown>) =>
      unwrap(
        api.PUT('/api/pages/{pageId}/blocks/{pbId}/replace', {
          params: { path: { pageId, pbId: instance.id } },
          body: { block_id: instance.block.id, placeholder_values },
        }),
      ),
    onSuccess: async () => {
      onReplaced();
      onClose();
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

  useEffect(() => {
    if (!focus) return;
    const node = focus.id ? formRef.current?.querySelector<HTMLElement>(`[id="${focus.id}"]`) : null;
    (node ?? summaryRef.current)?.focus();
    setFocus(undefined);
  }, [focus]);

  const failure = plan.error ?? contract.error;
  if (failure)
    return (
      <Alert color="red" role="alert" title="Cannot prepare the replacement">
        {errorMessage(failure)}
      </Alert>
    );
  if (!plan.data || !contract.data) return <Text c="dimmed">Loading the new version…</Text>;

  const removed = plan.data.removed_fields;
  const lost = lostValues(instance.placeholder_values, removed);
  const formData = values ?? keptValues(instance.placeholder_values, removed);
  const to = plan.data.library_version;
  return (
    <Stack>
      <Text>
        This page uses version {versionText(instance.version)}
        {to ? `; the library has ${versionText(to)}` : ''}. The new version is not compatible: the block is replaced in
        the same place, with the values you confirm below.
      </Text>
      {removed.length > 0 ? (
        <div>
          <Text fw={600} id="removed-title">
            Fields the new version removes
          </Text>
          <List size="sm" aria-labelledby="removed-title">
            {removed.map((path) => (
              <List.Item key={path}>
                <Code>{path}</Code>
              </List.Item>
            ))}
          </List>
        </div>
      ) : (
        <Text size="sm">The new version removes no field, but needs values it did not have before.</Text>
      )}
      {lost.length > 0 ? (
        <Table.ScrollContainer minWidth={300}>
          <Table withTableBorder captionSide="top">
            <Table.Caption>Values that will be lost</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Field</Table.Th>
                <Table.Th scope="col">Value</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lost.map(({ path, value }) => (
                <Table.Tr key={path}>
                  <Table.Th scope="row" fw={400}>
                    <Code>{path}</Code>
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{showValue(value)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        removed.length > 0 && <Text size="sm">No value is lost: the removed fields are empty on this page.</Text>
      )}
      <ErrorSummary ref={summaryRef} messages={summary} title="Could not replace the block" />
      <Text fw={600}>Values for the new version</Text>
      <div ref={formRef}>
        <SchemaForm
          schema={contract.data.schema}
          uiSchema={valuesUiSchema(contract.data)}
          widgets={fieldWidgets}
          templates={fieldTemplates}
          formContext={{ siteId } satisfies FieldsContext}
          validator={validator}
          formData={formData}
          extraErrors={extraErrors}
          showErrorList={false}
          noHtml5Validate
          focusOnFirstError
          onChange={({ formData: next }) => setValues(next as Record<string, unknown>)}
          onSubmit={({ formData: next }) => {
            setExtraErrors(undefined);
            setSummary([]);
            replace.mutate(next as Record<string, unknown>);
          }}
        >
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={replace.isPending}>
              Replace block
            </Button>
          </Group>
        </SchemaForm>
      </div>
    </Stack>
  );
}
