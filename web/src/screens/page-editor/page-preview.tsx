import { Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap, useApi } from '../../api/client';
import { PreviewFrame } from './preview-frame';

/** The key of a page's preview: under the page's own key, so every change that refetches the page renders it again. */
export const pagePreviewKey = (pageId: number) => ['page', pageId, 'preview'];

/**
 * The saved page as the service renders it, with stub data in bound slots.
 * Every change of the editor is saved (blocks at once, values when saved), and
 * each save refetches this preview: the service has no preview of unsaved
 * pages, only of one block with unsaved values (shown in the block's panel).
 */
export function PagePreview({ pageId }: { pageId: number }) {
  const api = useApi();
  const preview = useQuery({
    queryKey: pagePreviewKey(pageId),
    queryFn: () =>
      unwrap(api.GET('/api/pages/{id}/preview', { params: { path: { id: pageId } }, parseAs: 'text' })) as Promise<
        string | undefined
      >,
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="preview-title">
      <Title order={2} size="h3" id="preview-title" mb="xs">
        Preview
      </Title>
      <PreviewFrame
        title="Page preview"
        html={preview.data}
        error={preview.error}
        pending={preview.isFetching}
        note={
          <Text size="sm" c="dimmed" mb="xs">
            Bound slots show sample data; nothing is fetched from the live source.
          </Text>
        }
      />
    </section>
  );
}
