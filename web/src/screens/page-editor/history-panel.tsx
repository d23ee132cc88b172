import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type paths } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { formatDateTime } from '../../format';
import type { PageWithBlocks } from './use-page-blocks';
import { VersionChangesList } from './version-changes-list';

type Entry = paths['/api/pages/{id}/versions']['get']['responses'][200]['content']['application/json']['data'][number];

/** Who made a version and how they came, in words. */
export function actorText({ actor }: Entry): string {
  const who = actor.email ?? 'Someone';
  switch (actor.via) {
    case 'key':
      return `${who}, with the API key ${actor.key_prefix ?? ''}…`;
    case 'mcp':
      return `${who}, through an agent (MCP)`;
    case 'session':
      return `${who}, in the web app`;
    default:
      return 'When the history began';
  }
}

/**
 * The History tab: the page's versions, newest first (who, when, what, and a
 * mark on the published one). Showing a version puts it on the page in place
 * of the current one and lists what restoring it would change, by block name
 * and field label. Restore and "Undo the last change" (a restore of the
 * version before the current one) both confirm what will change first.
 */
export function HistoryPanel({
  page,
  shown,
  onShow,
  active,
}: {
  page: PageWithBlocks;
  /** The tab is open (or a version is shown): the history is read only then. */
  active: boolean;
  /** The version shown on the page; null: the current page. */
  shown: number | null;
  onShow: (version: number | null) => void;
}) {
  const api = useApi();
  const current = page.version;
  const versions = useQuery({
    queryKey: ['page', page.id, 'versions'],
    queryFn: () =>
      unwrap(
        api.GET('/api/pages/{id}/versions', { params: { path: { id: page.id }, query: { limit: 100, offset: 0 } } }),
      ),
    enabled: active,
  });
  const [restoring, setRestoring] = useState<{ to: number; undo: boolean } | null>(null);

  if (versions.isPending) return <Text c="dimmed">Loading the history…</Text>;
  if (versions.isError)
    return (
      <Alert color="red" role="alert" title="Cannot read the page’s history">
        {errorMessage(versions.error)}
      </Alert>
    );
  const entries = versions.data.data;
  return (
    <Stack gap="sm" component="section" aria-label="History">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {versions.data.total === 1 ? 'One version.' : `${versions.data.total} versions, the newest first.`}
        </Text>
        {current > 1 && (
          <Button variant="default" onClick={() => setRestoring({ to: current - 1, undo: true })}>
            Undo the last change
          </Button>
        )}
      </Group>
      {shown !== null && shown !== current && (
        <Paper withBorder p="sm" component="section" aria-label={`Version ${shown}`}>
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={3} size="h5">
                Version {shown} is shown on the page
              </Title>
              <Button size="compact-sm" onClick={() => setRestoring({ to: shown, undo: false })}>
                Restore version {shown}
              </Button>
            </Group>
            <Text size="sm" fw={500}>
              Restoring it changes:
            </Text>
            <VersionChangesList pageId={page.id} from={current} to={shown} />
          </Stack>
        </Paper>
      )}
      <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Versions">
        {entries.map((entry) => {
          const isCurrent = entry.number === current;
          const isShown = entry.number === shown || (shown === null && isCurrent);
          return (
            <Paper
              component="li"
              key={entry.number}
              withBorder
              p="xs"
              bg={isShown ? 'var(--mantine-color-blue-light)' : undefined}
              aria-current={isShown ? 'true' : undefined}
            >
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap={6}>
                    <Text fw={600} size="sm">
                      Version {entry.number}
                    </Text>
                    {isCurrent && (
                      <Badge size="xs" variant="light">
                        Current
                      </Badge>
                    )}
                    {entry.published && (
                      <Badge size="xs" color="green" variant="light">
                        Published
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {entry.summary}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {formatDateTime(entry.created_at)} · {actorText(entry)}
                  </Text>
                </Stack>
                {!isCurrent && entry.number !== shown && (
                  <Button
                    size="compact-xs"
                    variant="light"
                    aria-label={`Show version ${entry.number}`}
                    style={{ flex: 'none' }}
                    onClick={() => onShow(entry.number)}
                  >
                    Show
                  </Button>
                )}
              </Group>
            </Paper>
          );
        })}
      </Stack>
      <RestoreModal page={page} target={restoring} onClose={() => setRestoring(null)} onRestored={() => onShow(null)} />
    </Stack>
  );
}

/** Asks before a restore, with what it changes; the service's refusal (a block deleted since) stays in the dialog. */
function RestoreModal({
  page,
  target,
  onClose,
  onRestored,
}: {
  page: PageWithBlocks;
  target: { to: number; undo: boolean } | null;
  onClose: () => void;
  onRestored: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: (to: number) =>
      unwrap(api.POST('/api/pages/{id}/versions/{number}/restore', { params: { path: { id: page.id, number: to } } })),
    onSuccess: async () => {
      onRestored();
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['page', page.id] });
    },
  });
  const close = () => {
    restore.reset();
    onClose();
  };
  const title = target?.undo ? 'Undo the last change?' : `Restore version ${target?.to}?`;
  return (
    <Modal opened={target !== null} onClose={close} title={title} size="lg">
      {target && (
        <Stack>
          <Text size="sm">
            {target.undo
              ? `The page goes back to version ${target.to}, as it was before the last change. `
              : `The page becomes as it was in version ${target.to}. `}
            This makes a new version: nothing is lost, and it can be undone the same way.
          </Text>
          <Text size="sm" fw={500}>
            What changes:
          </Text>
          <VersionChangesList pageId={page.id} from={page.version} to={target.to} />
          {restore.isError && (
            <Alert color="red" role="alert" title="Could not restore">
              {errorMessage(restore.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button loading={restore.isPending} onClick={() => restore.mutate(target.to)}>
              {target.undo ? 'Undo the last change' : `Restore version ${target.to}`}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
