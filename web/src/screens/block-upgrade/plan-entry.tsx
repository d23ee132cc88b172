import { Anchor, Badge, Group, List, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { SandboxedHtml } from '../sandboxed-html';
import type { PlanEntry } from './types';
import { versionText } from './types';
import { BLOCKERS, labelOf, shown, type FieldInfo } from './words';

/** What the upgrade does to one instance, in words, and its HTML before and after side by side. */
export function PlanEntryCard({ entry, fields }: { entry: PlanEntry; fields: Map<string, FieldInfo> }) {
  const where = `${entry.page.name}, block ${entry.position + 1}`;
  const changes = changesOf(entry, fields);
  return (
    <Paper withBorder p="sm" component="article" aria-label={where}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Anchor component={Link} to={`/pages/${entry.page.id}`} fw={600}>
              {entry.page.name}
            </Anchor>
            <Text size="sm">
              block {entry.position + 1} · {versionText(entry.from)} → {versionText(entry.to)} (
              {entry.bump === 'major' ? 'major change' : 'minor update'})
            </Text>
          </Group>
          {entry.status === 'ready' ? (
            <Badge color="teal" variant="light">
              Ready
            </Badge>
          ) : (
            <Badge color="red" variant="light">
              Blocked
            </Badge>
          )}
        </Group>
        {entry.status === 'blocked' && (
          <Text size="sm">Blocked by {entry.blocked_by.map((b) => BLOCKERS[b] ?? b).join('; ')}.</Text>
        )}
        {changes.length > 0 ? (
          <List size="sm" spacing={2} aria-label={`Changes to ${where}`}>
            {changes.map((c) => (
              <List.Item key={c}>{c}</List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm">Its values stay as they are.</Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <Side label={`Before (${versionText(entry.from)})`} title={`Before: ${where}`} html={entry.html.before} />
          <Side label={`After (${versionText(entry.to)})`} title={`After: ${where}`} html={entry.html.after} />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {entry.html.changed ? 'The HTML changes.' : 'The HTML stays the same.'}
          {entry.html.assets_changed ? ' The block’s CSS or JS changes too, so it may look different.' : ''}
          {entry.html.errors.length > 0 ? ` Not shown: ${entry.html.errors.join('; ')}` : ''}
        </Text>
      </Stack>
    </Paper>
  );
}

function Side({ label, title, html }: { label: string; title: string; html: string | null }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {html === null ? (
        <Text size="sm" c="dimmed">
          Cannot be shown.
        </Text>
      ) : (
        <Paper withBorder>
          <SandboxedHtml
            title={title}
            html={html}
            style={{ width: '100%', height: 160, border: 0, display: 'block' }}
          />
        </Paper>
      )}
    </Stack>
  );
}

/** Fields added with the value they take, values lost, migrated, and refused, in sentences by label. */
function changesOf(entry: PlanEntry, fields: Map<string, FieldInfo>): string[] {
  const label = (path: string) => labelOf(path, fields);
  const added = new Set(entry.added.map((a) => a.field));
  return [
    ...entry.added.map(
      (a) =>
        `Adds ${label(a.field)}: ${a.value === null || a.value === undefined ? 'no value' : shown(a.value)}${a.from_default ? ' (its default)' : ''}.`,
    ),
    ...entry.lost.map((l) => `Loses ${label(l.path)}: ${shown(l.value)}.`),
    // A value a step gives a field the upgrade adds is said once, by `added`; a step that leaves a value as it was is not a change.
    ...entry.migrated
      .filter((m) => !added.has(m.path) && JSON.stringify(m.before) !== JSON.stringify(m.after))
      .map((m) =>
        m.after === null
          ? `Drops ${label(m.path)}: ${shown(m.before)}.`
          : `${label(m.path)}: ${shown(m.before)} becomes ${shown(m.after)}.`,
      ),
    ...entry.invalid_values.map((p) => `Refused: ${p.message}`),
    ...entry.invalid_bindings.map((p) => `Live data refused: ${p.message}`),
  ];
}
