import { Text } from '@mantine/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { unwrap, useApi } from '../../api/client';
import { ScreenError } from '../../shell/screen-error';

/** The block a block's screen is about (its page, its upgrade plan), under the key its edits refresh. */
export function useBlock(id: number) {
  const api = useApi();
  return useQuery({
    queryKey: ['block', id],
    queryFn: () => unwrap(api.GET('/api/blocks/{id}', { params: { path: { id } } })),
  });
}

/** What a block's screen shows until its block is read: "Loading…", or why it cannot be opened and the way back. */
export function BlockNotReady({ block }: { block: UseQueryResult<unknown> }) {
  if (!block.isError) return <Text c="dimmed">Loading…</Text>;
  return (
    <ScreenError
      title="Cannot open this block"
      error={block.error}
      what="block"
      back={{ to: '/blocks', label: 'Block library' }}
    />
  );
}
