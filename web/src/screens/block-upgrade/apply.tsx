import { Alert, Button, Checkbox, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Plan, UpgradeSet } from './types';
import { versionText } from './types';
import { count } from './words';

/**
 * "Upgrade everywhere…": a confirmation that names the pages and how many
 * instances each gains (the service's dry run of the very call), then the call.
 */
export function ApplyUpgrade({
  blockId,
  plan,
  pageNames,
  onApplied,
}: {
  blockId: number;
  plan: Plan;
  pageNames: Map<number, string>;
  onApplied: (set: UpgradeSet) => void;
}) {
  const [open, setOpen] = useState(false);
  const [migratable, setMigratable] = useState(true);
  const ready = plan.summary.minor + plan.summary.migration;
  if (plan.summary.behind === 0) return null;
  return (
    <>
      <Group>
        <Button onClick={() => setOpen(true)} disabled={ready === 0}>
          Upgrade everywhere…
        </Button>
        {ready === 0 && <Text size="sm">No instance is ready yet.</Text>}
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Upgrade to version ${versionText(plan.to)}?`}>
        {open && (
          <Confirm
            blockId={blockId}
            plan={plan}
            pageNames={pageNames}
            migratable={migratable}
            setMigratable={setMigratable}
            onCancel={() => setOpen(false)}
            onApplied={(set) => {
              setOpen(false);
              onApplied(set);
            }}
          />
        )}
      </Modal>
    </>
  );
}

function Confirm({
  blockId,
  plan,
  pageNames,
  migratable,
  setMigratable,
  onCancel,
  onApplied,
}: {
  blockId: number;
  plan: Plan;
  pageNames: Map<number, string>;
  migratable: boolean;
  setMigratable: (v: boolean) => void;
  onCancel: () => void;
  onApplied: (set: UpgradeSet) => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const call = (dryRun: boolean, include: boolean) =>
    unwrap(
      api.POST('/api/blocks/{id}/upgrades', {
        params: { path: { id: blockId }, query: dryRun ? { dry_run: 1 } : {} },
        body: { to: versionText(plan.to), include_migratable: include },
      }),
    );
  // Both dry runs: what a major carried by value migrations adds is their difference, offered as a choice.
  const without = useQuery({ queryKey: ['block', blockId, 'upgrades-dry', false], queryFn: () => call(true, false) });
  const withMajor = useQuery({
    queryKey: ['block', blockId, 'upgrades-dry', true],
    queryFn: () => call(true, true),
    enabled: plan.summary.migration > 0,
  });
  const extra = without.data && withMajor.data ? withMajor.data.upgraded.length - without.data.upgraded.length : 0;
  const include = extra > 0 && migratable;
  const dry = include ? withMajor : without;
  const apply = useMutation({
    mutationFn: () => call(false, include),
    onSuccess: async (set) => {
      await queryClient.invalidateQueries({ queryKey: ['block', blockId] });
      onApplied(set);
    },
  });
  const name = (id: number) => pageNames.get(id) ?? `Page ${id}`;
  return (
    <Stack gap="sm">
      {extra > 0 && (
        <Checkbox
          label={`Include the ${count(extra, 'instance')} a value migration carries across a major change`}
          checked={migratable}
          onChange={(e) => setMigratable(e.currentTarget.checked)}
        />
      )}
      {dry.isPending ? (
        <Text c="dimmed">Checking what moves…</Text>
      ) : dry.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(dry.error)}
        </Alert>
      ) : (
        <>
          <Text>
            {count(dry.data.upgraded.length, 'instance')} on {count(dry.data.pages.length, 'page')} move to version{' '}
            {versionText(plan.to)}, each page gaining one version:
          </Text>
          <List size="sm" aria-label="Pages the upgrade changes">
            {dry.data.pages.map((p) => (
              <List.Item key={p.page_id}>
                {name(p.page_id)}: {count(p.instances, 'instance')}
              </List.Item>
            ))}
          </List>
          {dry.data.skipped.length > 0 && (
            <Text size="sm">{count(dry.data.skipped.length, 'blocked instance')} stay where they are.</Text>
          )}
          <Text size="sm">You can revert it afterwards.</Text>
        </>
      )}
      {apply.isError && (
        <Alert color="red" role="alert">
          {errorMessage(apply.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          loading={apply.isPending}
          disabled={!dry.isSuccess || dry.data.upgraded.length === 0}
          onClick={() => apply.mutate()}
        >
          {dry.isSuccess ? `Upgrade ${count(dry.data.upgraded.length, 'instance')}` : 'Upgrade'}
        </Button>
      </Group>
    </Stack>
  );
}
