import { Alert, List, Stack, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { metadataLabel, parsePath, shortValue, valueLabel, type PlacedBlock, type SchemaNode } from './version-changes';

const versionText = (v: { major: number; minor: number }) => `${v.major}.${v.minor}`;

/**
 * What goes from version `from` to version `to` of a page, in words: blocks
 * added, removed, moved and re-pinned by name, values by block name and field
 * label, and the page's details by their labels. Empty: "Nothing differs".
 */
export function VersionChangesList({ pageId, from, to }: { pageId: number; from: number; to: number }) {
  const api = useApi();
  const params = (number: number) => ({ params: { path: { id: pageId, number } } });
  const diff = useQuery({
    queryKey: ['page', pageId, 'diff', from, to],
    queryFn: () =>
      unwrap(
        api.GET('/api/pages/{id}/versions/{number}/diff', {
          params: { path: { id: pageId, number: from }, query: { to } },
        }),
      ),
    staleTime: Infinity,
  });
  // Versions never change: each is read once. `from` names what was removed, `to` all the rest.
  const before = useQuery({
    queryKey: ['page', pageId, 'version', from],
    queryFn: () => unwrap(api.GET('/api/pages/{id}/versions/{number}', params(from))),
    staleTime: Infinity,
  });
  const after = useQuery({
    queryKey: ['page', pageId, 'version', to],
    queryFn: () => unwrap(api.GET('/api/pages/{id}/versions/{number}', params(to))),
    staleTime: Infinity,
  });
  // The fields' labels of each block whose values changed, from the contract of the revision it is pinned to in `to`.
  const changed = [...new Set((diff.data?.values ?? []).map((v) => parsePath(v.path)?.index ?? -1))].filter(
    (index) => index >= 0,
  );
  const pinned = changed.flatMap((index) => {
    const block = after.data?.blocks[index];
    return block && block.block.name !== null
      ? [{ index, id: block.block.id, version: versionText(block.version) }]
      : [];
  });
  const schemas = useQueries({
    queries: pinned.map(({ id, version }) => ({
      queryKey: ['placeholder-schema', id, version, 'sources'],
      queryFn: () =>
        unwrap(
          api.GET('/api/blocks/{id}/placeholder-schema', {
            params: { path: { id }, query: { expand: 'sources', version } },
          }),
        ),
      staleTime: Infinity,
    })),
  });

  const error = diff.error ?? before.error ?? after.error;
  if (error)
    return (
      <Alert color="red" role="alert" title="Cannot compare the versions">
        {errorMessage(error)}
      </Alert>
    );
  if (!diff.data || !before.data || !after.data) return <Text c="dimmed">Comparing…</Text>;

  const nameIn = (blocks: typeof after.data.blocks, id: number) =>
    blocks.find((b) => b.id === id)?.block.name ?? 'A deleted block';
  const placed: (PlacedBlock | undefined)[] = after.data.blocks.map((b, index) => {
    const at = pinned.findIndex((p) => p.index === index);
    const schema = at >= 0 ? (schemas[at]?.data?.schema as SchemaNode | undefined) : undefined;
    return { name: b.block.name ?? 'A deleted block', schema };
  });
  const { blocks, values, metadata } = diff.data;
  const lines = [
    ...blocks.added.map((b) => `Added: ${nameIn(after.data.blocks, b.id)}, at place ${b.index + 1}.`),
    ...blocks.removed.map((b) => `Removed: ${nameIn(before.data.blocks, b.id)}.`),
    ...blocks.moved.map((b) =>
      b.from_parent !== b.to_parent
        ? `Moved: ${nameIn(after.data.blocks, b.id)}, ${b.to_parent === null ? 'out of its layout' : `into ${nameIn(after.data.blocks, b.to_parent)}`}.`
        : `Moved: ${nameIn(after.data.blocks, b.id)}, from place ${b.from_index + 1} to ${b.to_index + 1}.`,
    ),
    ...blocks.pins.map(
      (b) => `${nameIn(after.data.blocks, b.id)}: version ${versionText(b.from)} → ${versionText(b.to)}.`,
    ),
    ...values.map((v) => `${valueLabel(v.path, placed)}: ${shortValue(v.old)} → ${shortValue(v.new)}`),
    ...metadata.map((m) => `${metadataLabel(m.field)}: ${shortValue(m.old)} → ${shortValue(m.new)}`),
  ];
  if (lines.length === 0) return <Text size="sm">Nothing differs.</Text>;
  return (
    <Stack gap={4}>
      <List size="sm" spacing={4} aria-label={`Changes from version ${from} to version ${to}`}>
        {lines.map((line, i) => (
          <List.Item key={i} style={{ overflowWrap: 'anywhere' }}>
            {line}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
