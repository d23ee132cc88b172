import { Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { unwrap, useApi } from '../../api/client';
import { PREVIEW_DELAY_MS } from './block-preview';
import { PreviewFrame } from './preview-frame';
import type { Instance } from './use-page-blocks';

/** The unsaved state of the instance being edited, as the draft preview takes it. */
export interface InstanceDraft {
  id: number;
  placeholder_values: Record<string, unknown>;
  bindings?: Record<string, unknown> | null;
}

/** The key of a page's preview: under the page's own key, so every change that refetches the page renders it again. */
export const pagePreviewKey = (pageId: number) => ['page', pageId, 'preview'];

/**
 * The page as the editor holds it, rendered by the service with stub data in
 * bound slots: the instances in the order shown (a move is drawn before the
 * service confirms it) and the open panel's unsaved values and bindings,
 * following each change after a short pause. Nothing is saved by it. A state
 * the service refuses keeps the last rendering, with the reason.
 */
export function PagePreview({
  pageId,
  blocks,
  draft,
}: {
  pageId: number;
  blocks: Instance[];
  draft: InstanceDraft | null;
}) {
  const api = useApi();
  const body = {
    blocks: blocks.map((b) => {
      const { id: _id, ...changed } = draft?.id === b.id ? draft : { id: b.id };
      return { id: b.id, parent_page_block_id: b.parent_page_block_id, ...changed };
    }),
  };
  const [debounced] = useDebouncedValue(JSON.stringify(body), PREVIEW_DELAY_MS);
  const preview = useQuery({
    queryKey: [...pagePreviewKey(pageId), debounced],
    queryFn: () =>
      unwrap(
        api.POST('/api/pages/{id}/preview', {
          params: { path: { id: pageId } },
          body: JSON.parse(debounced) as typeof body,
          parseAs: 'text',
        }),
      ) as Promise<string | undefined>,
    placeholderData: keepPreviousData,
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
        note={
          <Text size="sm" c="dimmed" mb="xs">
            Unsaved changes included. Bound slots show sample data; nothing is fetched from the live source.
          </Text>
        }
      />
    </section>
  );
}
