import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type paths } from '../../api/client';
import { ApiError, errorMessage } from '../../api/errors';
import { displayNames } from './display-names';
import { ReplaceBlockModal, versionText } from './replace-block-modal';
import type { Instance } from './use-page-blocks';

type UpgradeAll =
  paths['/api/pages/{pageId}/blocks/upgrade-all']['post']['responses'][200]['content']['application/json'];

/**
 * The page's instances pinned to an older revision of their block: the pinned
 * version against the library's, "Upgrade" for a minor change, "Upgrade all"
 * for every minor one at once, and the replace flow for a major change.
 */
export function OutdatedBlocks({
  pageId,
  siteId,
  blocks,
  onChanged,
}: {
  pageId: number;
  /** The page's site, whose uploads the Replace dialog's image fields choose from. */
  siteId: number | null;
  blocks: Instance[];
  onChanged: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [replacing, setReplacing] = useState<Instance | null>(null);
  const [report, setReport] = useState<UpgradeAll | null>(null);
  const outdated = blocks.filter((b) => b.update_status !== 'up_to_date');
  const blockIds = [...new Set(outdated.map((b) => b.block.id))];
  const library = useQueries({
    queries: blockIds.map((id) => ({
      queryKey: ['block', id],
      queryFn: () => unwrap(api.GET('/api/blocks/{id}', { params: { path: { id } } })),
    })),
  });
  const libraryVersion = (blockId: number) => library[blockIds.indexOf(blockId)]?.data?.version;

  const settled = async () => {
    onChanged();
    await queryClient.invalidateQueries({ queryKey: ['page', pageId] });
  };
  const upgrade = useMutation({
    mutationFn: (instance: Instance) =>
      unwrap(
        api.POST('/api/pages/{pageId}/blocks/{pbId}/upgrade', { params: { path: { pageId, pbId: instance.id } } }),
      ),
    onMutate: () => setReport(null),
    onSuccess: settled,
    onError: (error, instance) => {
      // The library moved on to a major change since the page was read: that one needs the replace flow.
      if (error instanceof ApiError && error.status === 422) setReplacing(instance);
    },
  });
  const upgradeAll = useMutation({
    mutationFn: () => unwrap(api.POST('/api/pages/{pageId}/blocks/upgrade-all', { params: { path: { pageId } } })),
    onMutate: () => setReport(null),
    onSuccess: async (result) => {
      setReport(result);
      await settled();
    },
  });

  // A report's note on blocks left with a major change lists only those still so: one replaced since goes from it.
  const left = (report?.skipped_major ?? []).filter((s) =>
    blocks.some((b) => b.id === s.id && b.update_status === 'outdated_major'),
  );
  const shownReport = report && (report.upgraded.length > 0 || left.length > 0) ? { ...report, left } : null;
  if (outdated.length === 0 && !shownReport)
    return (
      <Text size="sm" c="dimmed">
        Every block on this page is on its latest version.
      </Text>
    );
  const minors = outdated.filter((b) => b.update_status === 'outdated_minor').length;
  const names = displayNames(blocks);
  const busy = upgrade.isPending || upgradeAll.isPending;
  return (
    <section aria-labelledby="updates-title">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} size="h3" id="updates-title">
              Block updates
            </Title>
            {minors > 0 && (
              <Button
                variant="light"
                loading={upgradeAll.isPending}
                disabled={busy}
                onClick={() => upgradeAll.mutate()}
              >
                Upgrade all
              </Button>
            )}
          </Group>
          {outdated.length > 0 && (
            <Text size="sm">
              These blocks changed in the library after they were put on this page. A minor change keeps the values; a
              major one removes fields, so the block is replaced after you see what is lost.
            </Text>
          )}
          {shownReport && <UpgradeReport report={shownReport} names={names} />}
          {(upgrade.isError || upgradeAll.isError) && !(replacing && upgrade.isError) && (
            <Alert color="red" role="alert" title="Could not upgrade">
              {errorMessage(upgrade.error ?? upgradeAll.error)}
            </Alert>
          )}
          <Stack
            gap="xs"
            component="ul"
            aria-label="Outdated blocks"
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
          >
            {outdated.map((instance) => {
              const latest = libraryVersion(instance.block.id);
              const major = instance.update_status === 'outdated_major';
              return (
                <Group component="li" key={instance.id} justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs" wrap="wrap">
                    <Text fw={600}>{names[instance.id]}</Text>
                    <Text size="sm">
                      {`version ${versionText(instance.version)} on this page`}
                      {latest ? `, ${versionText(latest)} in the library` : ''}
                    </Text>
                    <Badge variant="light" color={major ? 'red' : 'blue'}>
                      {major ? 'Major change' : 'Minor change'}
                    </Badge>
                  </Group>
                  {major ? (
                    <Button
                      size="compact-sm"
                      variant="default"
                      aria-label={`Replace ${names[instance.id]}…`}
                      onClick={() => setReplacing(instance)}
                    >
                      Replace…
                    </Button>
                  ) : (
                    <Button
                      size="compact-sm"
                      aria-label={`Upgrade ${names[instance.id]}`}
                      disabled={busy}
                      loading={upgrade.isPending && upgrade.variables?.id === instance.id}
                      onClick={() => upgrade.mutate(instance)}
                    >
                      Upgrade
                    </Button>
                  )}
                </Group>
              );
            })}
          </Stack>
        </Stack>
      </Paper>
      <ReplaceBlockModal
        pageId={pageId}
        siteId={siteId}
        instance={replacing}
        onClose={() => {
          setReplacing(null);
          upgrade.reset();
        }}
        onReplaced={onChanged}
      />
    </section>
  );
}

function UpgradeReport({
  report,
  names,
}: {
  report: UpgradeAll & { left: UpgradeAll['skipped_major'] };
  names: Record<number, string>;
}) {
  const upgraded = report.upgraded.length;
  return (
    <Alert color={report.left.length ? 'yellow' : 'green'} role="status" title="Upgrade all">
      <Text size="sm">
        {upgraded === 0 ? 'No block was upgraded.' : `${upgraded} block${upgraded === 1 ? '' : 's'} upgraded.`}
      </Text>
      {report.left.length > 0 && (
        <Text size="sm">
          {`Left as they are, with a major change to replace: ${report.left.map((s) => names[s.id] ?? 'a block').join(', ')}.`}
        </Text>
      )}
    </Alert>
  );
}
