import { Text, Title } from '@mantine/core';
import { useDebouncedValue, useViewportSize } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { unwrap, useApi } from '../../api/client';
import { PREVIEW_DELAY_MS } from './block-preview';
import type { Picking } from '../sandboxed-html';
import { PreviewFrame } from './preview-frame';
import type { Instance } from './use-page-blocks';

/** The unsaved state of the instance being edited, as the draft preview takes it. */
export interface InstanceDraft {
  id: number;
  placeholder_values: Record<string, unknown>;
  bindings?: Record<string, unknown> | null;
}

/**
 * The page as the editor holds it, rendered by the service with stub data in
 * bound slots: the instances in the order shown (a move is drawn before the
 * service confirms it) and the open panel's unsaved values and bindings.
 * Nothing is saved by it. A state the service refuses keeps the last
 * rendering, with the reason.
 *
 * It renders once per state: only typing waits for a pause (an add, a move or
 * a save renders at once), a state is keyed by everything that shows in it
 * (the saved values and versions too, not the page's query, whose refetch
 * after a change would render the same state again), and a request that a
 * newer state makes stale is cancelled.
 */
export function PagePreview({
  pageId,
  title,
  blocks,
  draft,
  pick,
}: {
  pageId: number;
  /** The document's title: the page's meta title or name. */
  title: string;
  blocks: Instance[];
  draft: InstanceDraft | null;
  /** Blocks outlined under the pointer and chosen by a click. */
  pick?: Picking;
}) {
  const api = useApi();
  // The page fills the height of the window beside the panel (and stays in view while the panel scrolls).
  const { height: viewport } = useViewportSize();
  const [typed] = useDebouncedValue(draft, PREVIEW_DELAY_MS);
  // A discarded or saved draft leaves at once; a typed one after the pause.
  const shown = draft === null ? null : typed;
  const body = {
    blocks: blocks.map((b) => {
      const { id: _id, ...changed } = shown?.id === b.id ? shown : { id: b.id };
      return { id: b.id, parent_page_block_id: b.parent_page_block_id, ...changed };
    }),
  };
  const saved = blocks.map((b) => [b.id, b.version, b.placeholder_values, b.bindings]);
  const preview = useQuery({
    queryKey: ['page-preview', pageId, JSON.stringify(body), JSON.stringify([title, saved])],
    queryFn: ({ signal }) =>
      unwrap(
        api.POST('/api/pages/{id}/preview', {
          // Marked: the frame finds each block by its comments, to outline it and tell which was clicked.
          params: { path: { id: pageId }, query: { marks: 1 } },
          body,
          parseAs: 'text',
          signal,
        }),
      ) as Promise<string | undefined>,
    placeholderData: keepPreviousData,
    // The key holds all that the rendering depends on: a state met again is shown from the cache.
    staleTime: Infinity,
    retry: false,
  });
  // The last rendering stays when a newer state is refused (its query has no data of its own).
  const last = useRef<string | undefined>(undefined);
  if (preview.data !== undefined) last.current = preview.data;
  return (
    <section aria-labelledby="preview-title">
      <Title order={2} size="h3" id="preview-title" mb="xs">
        Preview
      </Title>
      <PreviewFrame
        title="Page preview"
        html={preview.data ?? last.current}
        error={preview.error}
        pending={preview.isFetching}
        pick={pick}
        fitHeight={viewport > 0 ? Math.max(360, viewport - 260) : undefined}
        note={
          <Text size="sm" c="dimmed" mb="xs">
            Unsaved changes included. Bound slots show sample data; nothing is fetched from the live source. Click a
            block to edit it.
          </Text>
        }
      />
    </section>
  );
}
