import { Alert, Anchor, Group, List, Pagination, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap, useApi } from '../api/client';
import { ApiError, errorMessage } from '../api/errors';
import { DocumentTitle } from '../shell/document-title';
import { BlockNotReady, useBlock } from './block/block-query';
import { ApplyUpgrade } from './block-upgrade/apply';
import { PlanEntryCard } from './block-upgrade/plan-entry';
import { PlanSummary } from './block-upgrade/summary';
import type { UpgradeSet } from './block-upgrade/types';
import { versionText } from './block-upgrade/types';
import { RevertButton, UpgradeSets } from './block-upgrade/upgrade-sets';
import { ValueFixes } from './block-upgrade/value-fixes';
import { count, fieldsByName } from './block-upgrade/words';

const PER_PAGE = 5;

/**
 * A block's upgrade plan (issue 29, point 8): the summary, value fixes for
 * blocked instances, each instance's before and after, "Upgrade everywhere…"
 * and the block's recent upgrades, each revertable.
 */
export function BlockUpgradeScreen() {
  const id = Number(useParams().id);
  const api = useApi();
  const [offset, setOffset] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [applied, setApplied] = useState<UpgradeSet | null>(null);
  const block = useBlock(id);
  const adoption = useQuery({
    queryKey: ['block', id, 'adoption'],
    queryFn: () => unwrap(api.GET('/api/blocks/{id}/adoption', { params: { path: { id } } })),
  });
  const plan = useQuery({
    queryKey: ['block', id, 'upgrade-plan', offset],
    queryFn: () =>
      unwrap(
        api.GET('/api/blocks/{id}/upgrade-plan', {
          params: { path: { id }, query: { limit: PER_PAGE, offset } },
        }),
      ),
    enabled: block.data?.current_revision != null,
    placeholderData: keepPreviousData,
    // The plan renders on the shared render threads: a 429 says when to ask again (the block's own previews may be queued).
    retry: (n, error) => (error instanceof ApiError ? error.status === 429 && n < 5 : n < 2),
    retryDelay: (_n, error) => (error instanceof ApiError && error.retryAfter ? error.retryAfter * 1000 : 1000),
  });
  const fields = useMemo(() => fieldsByName(block.data?.current_revision?.schema_content), [block.data]);
  const pageNames = useMemo(
    () => new Map((adoption.data?.revisions ?? []).flatMap((r) => r.pages.map((p) => [p.id, p.name] as const))),
    [adoption.data],
  );

  if (!block.isSuccess) return <BlockNotReady block={block} />;
  const b = block.data;
  return (
    <Stack maw={1100}>
      <Anchor component={Link} to={`/blocks/${id}`} size="sm">
        ← {b.name}
      </Anchor>
      <DocumentTitle title={`Upgrade ${b.name}`} />
      <Title order={1}>
        Upgrade {b.name}
        {b.version ? ` to version ${versionText(b.version)}` : ''}
      </Title>
      {applied && (
        <Applied
          set={applied}
          blockId={id}
          pageNames={pageNames}
          onReverted={() => {
            setApplied(null);
            setNotice('The upgrade was reverted: each of its pages is back to its version before it.');
          }}
        />
      )}
      {notice && (
        <Alert color="teal" role="status" withCloseButton onClose={() => setNotice(null)} closeButtonLabel="Dismiss">
          {notice}
        </Alert>
      )}
      {!b.current_revision ? (
        <Text>This block has no revision yet: there is nothing to upgrade to.</Text>
      ) : plan.isPending ? (
        <Text c="dimmed">Planning the upgrade…</Text>
      ) : plan.isError ? (
        <Alert color="red" role="alert" title="Cannot plan the upgrade">
          {errorMessage(plan.error)}
        </Alert>
      ) : (
        <>
          <PlanSummary plan={plan.data} fields={fields} />
          {b.scope === 'user' && b.version && versionText(b.version) === versionText(plan.data.to) && (
            <ValueFixes blockId={id} plan={plan.data} fields={fields} onFixed={setNotice} />
          )}
          <ApplyUpgrade
            blockId={id}
            plan={plan.data}
            pageNames={pageNames}
            onApplied={(set) => {
              setNotice(null);
              setOffset(0);
              setApplied(set);
            }}
          />
          {plan.data.total > 0 && (
            <section aria-labelledby="entries-title">
              <Title order={2} size="h3" id="entries-title" mb="xs">
                Each instance, before and after
              </Title>
              <Stack gap="sm">
                {plan.data.data.map((entry) => (
                  <PlanEntryCard key={entry.id} entry={entry} fields={fields} />
                ))}
                {plan.data.total > PER_PAGE && (
                  <Group justify="space-between">
                    <Text size="sm">
                      {offset + 1}–{Math.min(offset + PER_PAGE, plan.data.total)} of{' '}
                      {count(plan.data.total, 'instance')}
                    </Text>
                    <Pagination
                      total={Math.ceil(plan.data.total / PER_PAGE)}
                      value={offset / PER_PAGE + 1}
                      onChange={(n) => setOffset((n - 1) * PER_PAGE)}
                      getControlProps={(control) => ({ 'aria-label': `${control} page of instances` })}
                      getItemProps={(n) => ({ 'aria-label': `Instances, page ${n}` })}
                    />
                  </Group>
                )}
              </Stack>
            </section>
          )}
        </>
      )}
      <UpgradeSets blockId={id} pageNames={pageNames} />
    </Stack>
  );
}

/** What an upgrade everywhere just did, with its Revert. */
function Applied({
  set,
  blockId,
  pageNames,
  onReverted,
}: {
  set: UpgradeSet;
  blockId: number;
  pageNames: Map<number, string>;
  onReverted: () => void;
}) {
  const name = (id: number) => pageNames.get(id) ?? `Page ${id}`;
  if (set.id === null)
    return (
      <Alert color="gray" role="status">
        Nothing was upgraded: no instance was ready.
      </Alert>
    );
  const stored = { ...set, id: set.id, created_at: set.created_at ?? '' };
  return (
    <Alert color="teal" role="status" title={`Upgraded to version ${versionText(set.to)}`}>
      <Stack gap="xs">
        <Text size="sm">
          {count(set.upgraded.length, 'instance')} on {count(set.pages.length, 'page')}, each page one new version
          {set.skipped.length > 0 ? `; ${count(set.skipped.length, 'blocked instance')} stayed where they were` : ''}.
        </Text>
        <List size="sm" aria-label="Pages the upgrade changed">
          {set.pages.map((p) => (
            <List.Item key={p.page_id}>
              <Anchor component={Link} to={`/pages/${p.page_id}`} size="sm">
                {name(p.page_id)}
              </Anchor>
              : {count(p.instances, 'instance')}, version {p.version_before} → {p.version_after}
            </List.Item>
          ))}
        </List>
        <Group>
          <RevertButton blockId={blockId} set={stored} pageNames={pageNames} onReverted={onReverted} />
        </Group>
      </Stack>
    </Alert>
  );
}
