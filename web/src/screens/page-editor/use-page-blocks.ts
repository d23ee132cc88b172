import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap, useApi, type paths } from '../../api/client';
import type { Move } from './nesting';

export type PageWithBlocks = paths['/api/pages/{id}']['get']['responses'][200]['content']['application/json'];
export type Instance = NonNullable<PageWithBlocks['blocks']>[number];

/** `ids` with `id` moved to `position`: the order the service will have after a move. */
export function moveTo<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/**
 * The page's block changes: add, remove, move. Each refetches the page, which
 * the preview follows (page-preview.tsx). An add shows the page it answers at
 * once; a move shows the new order at once and falls back to the service's
 * order when it is refused.
 */
export function usePageBlocks(pageId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  const key = ['page', pageId];
  const settled = () => queryClient.invalidateQueries({ queryKey: key });

  // A new instance starts from the block's example (built from its fields'
  // defaults, valid as it is), so a block with required fields can be added
  // in one click and edited afterwards, as in other page builders.
  const add = useMutation({
    mutationFn: async ({ blockId, parent }: { blockId: number; parent?: number | null }) => {
      const contract = await unwrap(
        api.GET('/api/blocks/{id}/placeholder-schema', { params: { path: { id: blockId } } }),
      );
      return unwrap(
        api.POST('/api/pages/{pageId}/blocks', {
          params: { path: { pageId } },
          body: {
            blocks: [
              {
                block_id: blockId,
                placeholder_values: contract.example,
                ...(parent != null ? { parent_page_block_id: parent } : {}),
              },
            ],
          },
        }),
      );
    },
    onSuccess: (page) => {
      if (page?.blocks) queryClient.setQueryData(key, page);
      return settled();
    },
  });

  const remove = useMutation({
    mutationFn: (pbId: number) =>
      unwrap(api.DELETE('/api/pages/{pageId}/blocks/{pbId}', { params: { path: { pageId, pbId } } })),
    onSuccess: settled,
  });

  const move = useMutation({
    mutationFn: ({ pbId, position, parent }: Move) =>
      unwrap(
        api.PUT('/api/pages/{pageId}/blocks/{pbId}/move', {
          params: { path: { pageId, pbId } },
          body: { position, ...(parent !== undefined ? { parent_page_block_id: parent } : {}) },
        }),
      ),
    onMutate: async ({ pbId, position, parent }) => {
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<PageWithBlocks>(key, (page) => {
        const blocks = page?.blocks;
        if (!page || !blocks) return page;
        const from = blocks.findIndex((b) => b.id === pbId);
        if (from < 0) return page;
        const moved = moveTo(blocks, from, position);
        return {
          ...page,
          blocks:
            parent === undefined
              ? moved
              : moved.map((b) => (b.id === pbId ? { ...b, parent_page_block_id: parent } : b)),
        };
      });
    },
    // Refused or not, the service's order is the truth.
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });

  return { add, remove, move };
}
