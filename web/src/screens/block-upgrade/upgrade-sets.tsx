import { Alert, Button, Group, List, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { ApiError, errorMessage, forPeople } from '../../api/errors';
import { formatDateTime } from '../../format';
import type { StoredSet } from './types';
import { versionText } from './types';
import { count } from './words';

type SetLike = Pick<StoredSet, 'id' | 'to' | 'pages' | 'created_at' | 'reverted_at'>;

const instancesOf = (set: SetLike) => set.pages.reduce((n, p) => n + p.instances, 0);

/** The block's recent upgrade sets, newest first, each with Revert while it stands. */
export function UpgradeSets({ blockId, pageNames }: { blockId: number; pageNames: Map<number, string> }) {
  const api = useApi();
  const sets = useQuery({
    queryKey: ['block', blockId, 'upgrade-sets'],
    queryFn: () =>
      unwrap(api.GET('/api/blocks/{id}/upgrades', { params: { path: { id: blockId }, query: { limit: 10 } } })),
  });
  return (
    <section aria-labelledby="sets-title">
      <Title order={2} size="h3" id="sets-title" mb="xs">
        Recent upgrades
      </Title>
      {sets.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : sets.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(sets.error)}
        </Alert>
      ) : sets.data.total === 0 ? (
        <Text size="sm">No upgrade of this block yet.</Text>
      ) : (
        <Stack
          gap="xs"
          component="ul"
          aria-label="Upgrades of this block"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {sets.data.data.map((set) => (
            <Paper key={set.id} withBorder p="sm" component="li">
              <Group justify="space-between" gap="xs">
                <Stack gap={2}>
                  <Text fw={500}>
                    To version {versionText(set.to)}, {formatDateTime(set.created_at)}
                  </Text>
                  <Text size="sm">
                    {count(instancesOf(set), 'instance')} on{' '}
                    {set.pages.map((p) => pageNames.get(p.page_id) ?? `Page ${p.page_id}`).join(', ')}
                    {set.reverted_at ? ` · reverted ${formatDateTime(set.reverted_at)}` : ''}
                  </Text>
                </Stack>
                {!set.reverted_at && <RevertButton blockId={blockId} set={set} pageNames={pageNames} />}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </section>
  );
}

/** Revert, confirmed; a page changed since the set is named, with "Revert anyway" (its later change undone too). */
export function RevertButton({
  blockId,
  set,
  pageNames,
  onReverted,
}: {
  blockId: number;
  set: SetLike;
  pageNames: Map<number, string>;
  onReverted?: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const name = (id: number) => pageNames.get(id) ?? `Page ${id}`;
  const revert = useMutation({
    mutationFn: (force: boolean) =>
      unwrap(api.POST('/api/upgrade-sets/{id}/revert', { params: { path: { id: set.id } }, body: { force } })),
    onSuccess: async () => {
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: ['block', blockId] });
      onReverted?.();
    },
  });
  const changed =
    revert.error instanceof ApiError && revert.error.status === 409
      ? revert.error.errors.flatMap((e) => {
          const i = /^pages\[(\d+)\]$/.exec(e.path)?.[1];
          const page = i === undefined ? undefined : set.pages[Number(i)];
          return page && /changed since/.test(e.message) ? [page] : [];
        })
      : [];
  const when = formatDateTime(set.created_at);
  return (
    <>
      <Button variant="default" onClick={() => (revert.reset(), setOpen(true))}>
        Revert…
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Revert this upgrade?">
        <Stack gap="sm">
          <Text>
            The upgrade to version {versionText(set.to)} of {when} changed {count(set.pages.length, 'page')}. Each goes
            back to its version before it, gaining a new version:
          </Text>
          <List size="sm" aria-label="Pages the revert changes">
            {set.pages.map((p) => (
              <List.Item key={p.page_id}>
                {name(p.page_id)}: back to version {p.version_before}
              </List.Item>
            ))}
          </List>
          {changed.length > 0 ? (
            <Alert color="orange" role="alert" title="Changed since the upgrade">
              <Stack gap={4}>
                {changed.map((p) => (
                  <Text key={p.page_id} size="sm">
                    {name(p.page_id)} was changed after the upgrade. Reverting it anyway takes it back to version{' '}
                    {p.version_before} and undoes that later change too (it stays in the page’s history).
                  </Text>
                ))}
                <Text size="sm">Nothing was reverted.</Text>
              </Stack>
            </Alert>
          ) : (
            revert.isError && (
              <Alert color="red" role="alert">
                {revert.error instanceof ApiError && revert.error.errors.length > 0
                  ? revert.error.errors.map((e) => forPeople(e.message)).join(' ')
                  : errorMessage(revert.error)}
              </Alert>
            )
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            {changed.length > 0 ? (
              <Button loading={revert.isPending} onClick={() => revert.mutate(true)}>
                Revert anyway
              </Button>
            ) : (
              <Button loading={revert.isPending} onClick={() => revert.mutate(false)}>
                Revert
              </Button>
            )}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
