import { Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { unwrap, useApi } from '../../api/client';
import { PreviewFrame } from './preview-frame';

/**
 * How long the previews wait after the last keystroke before they ask the
 * service to render: long enough to skip most keystrokes of a word, short
 * enough that the page follows well within a second.
 */
export const PREVIEW_DELAY_MS = 250;

/**
 * One instance rendered by the service from the editor's unsaved values and
 * bindings (stub data in bound slots), following each change after a short
 * pause. It is the page's preview with this instance alone, so that it renders
 * on the revision the instance is pinned to, as the page will. A state the
 * service refuses keeps the last rendering, with the reason.
 */
export function BlockPreview({
  pageId,
  instanceId,
  input,
}: {
  pageId: number;
  instanceId: number;
  input: { placeholder_values: Record<string, unknown>; bindings?: Record<string, unknown> | null };
}) {
  const api = useApi();
  const [debounced] = useDebouncedValue(JSON.stringify(input), PREVIEW_DELAY_MS);
  const preview = useQuery({
    // Not under the page's key: saving refetches the page, not this.
    queryKey: ['instance-preview', pageId, instanceId, debounced],
    // A state made stale by a newer one is cancelled, not rendered for nothing.
    queryFn: ({ signal }) => {
      const { placeholder_values, bindings } = JSON.parse(debounced) as typeof input;
      return unwrap(
        api.POST('/api/pages/{id}/preview', {
          params: { path: { id: pageId } },
          body: {
            blocks: [
              {
                id: instanceId,
                parent_page_block_id: null,
                placeholder_values,
                ...(bindings !== undefined ? { bindings } : {}),
              },
            ],
          },
          parseAs: 'text',
          signal,
        }),
      );
    },
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
  });
  // The last rendering stays when a newer state is refused (its query has no data of its own).
  const last = useRef<string | undefined>(undefined);
  if (preview.data !== undefined) last.current = preview.data;
  return (
    <section aria-labelledby="block-preview-title">
      <Title order={3} size="h5" id="block-preview-title" mb={4}>
        Preview of this block, unsaved changes included
      </Title>
      <PreviewFrame
        title="Block preview"
        html={preview.data ?? last.current}
        error={preview.error}
        pending={preview.isFetching}
        height={420}
        note={
          <Text size="xs" c="dimmed" mb="xs">
            Rendered with the version this instance uses and sample data in bound slots.
          </Text>
        }
      />
    </section>
  );
}
