import { Alert, Anchor, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { count } from '../block-upgrade/words';

/**
 * Where the block stands on the user's pages (issue 29, point 8): how many
 * instances on each revision, newest first, and on which pages, with the way
 * to the upgrade plan when some are behind.
 */
export function Adoption({ id }: { id: number }) {
  const api = useApi();
  const adoption = useQuery({
    queryKey: ['block', id, 'adoption'],
    queryFn: () => unwrap(api.GET('/api/blocks/{id}/adoption', { params: { path: { id } } })),
  });
  const data = adoption.data;
  const behind = data ? data.revisions.filter((r) => !r.current).reduce((n, r) => n + r.instances, 0) : 0;
  return (
    <section aria-labelledby="usages-title">
      <Title order={2} size="h3" id="usages-title" mb="xs">
        Used on your pages
      </Title>
      {adoption.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : adoption.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(adoption.error)}
        </Alert>
      ) : data!.instances === 0 ? (
        <Stack gap="xs">
          <Text size="sm">Not used on any of your pages yet.</Text>
          <UpgradesLink id={id} label="Recent upgrades" />
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            {count(data!.instances, 'instance')} on {count(data!.pages, 'page')}
            {behind > 0 && data!.version
              ? `; ${count(behind, 'instance')} behind version ${data!.version.major}.${data!.version.minor}.`
              : ', all on the current version.'}
          </Text>
          <Stack
            gap="xs"
            component="ul"
            aria-label="Instances by version"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {data!.revisions.map((r) => {
              const v = `${r.version.major}.${r.version.minor}`;
              return (
                <Paper key={v} withBorder p="sm" component="li" aria-label={`Version ${v}`}>
                  <Text fw={500}>
                    Version {v}
                    {r.current ? ' (current)' : ''}: {count(r.instances, 'instance')} on {count(r.pages.length, 'page')}
                  </Text>
                  <PagesOf version={v} pages={r.pages} />
                </Paper>
              );
            })}
          </Stack>
          <UpgradesLink id={id} label={behind > 0 ? 'See the upgrade plan' : 'Recent upgrades'} primary={behind > 0} />
        </Stack>
      )}
    </section>
  );
}

const SHOWN = 10;

/** A revision's pages, the first ten with "Show all" past them (a block may stand on hundreds). */
function PagesOf({
  version,
  pages,
}: {
  version: string;
  pages: Array<{ id: number; name: string; instances: number }>;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? pages : pages.slice(0, SHOWN);
  return (
    <>
      <List size="sm" aria-label={`Pages with version ${version}`}>
        {shown.map((p) => (
          <List.Item key={p.id}>
            <Anchor component={Link} to={`/pages/${p.id}`} size="sm">
              {p.name}
            </Anchor>{' '}
            ({count(p.instances, 'instance')})
          </List.Item>
        ))}
      </List>
      {pages.length > SHOWN && (
        <Button variant="subtle" size="compact-sm" onClick={() => setAll(!all)}>
          {all ? 'Show fewer pages' : `Show all ${pages.length} pages`}
        </Button>
      )}
    </>
  );
}

function UpgradesLink({ id, label, primary = false }: { id: number; label: string; primary?: boolean }) {
  return (
    <Group>
      <Button component={Link} to={`/blocks/${id}/upgrade`} variant={primary ? 'filled' : 'default'}>
        {label}
      </Button>
    </Group>
  );
}
