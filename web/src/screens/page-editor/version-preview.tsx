import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { unwrap, useApi } from '../../api/client';
import { PreviewFrame } from './preview-frame';

/**
 * A past version of the page on the page's place, rendered with the block
 * revisions it pinned (the bytes of its preview when it was current), under a
 * bar that says which version it is and leads back to the current page.
 */
export function VersionPreview({ pageId, version, onBack }: { pageId: number; version: number; onBack: () => void }) {
  const api = useApi();
  const { height: viewport } = useViewportSize();
  const preview = useQuery({
    queryKey: ['page', pageId, 'version', version, 'preview'],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/api/pages/{id}/versions/{number}/preview', {
          params: { path: { id: pageId, number: version } },
          parseAs: 'text',
          signal,
        }),
      ) as Promise<string | undefined>,
    // A version never changes.
    staleTime: Infinity,
    retry: false,
  });
  return (
    <section aria-labelledby="preview-title">
      <Title order={2} size="h3" id="preview-title" mb="xs">
        Preview
      </Title>
      <Paper withBorder p="xs" mb="xs" bg="var(--mantine-color-yellow-light)" role="status">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>Version {version}</Text>
          <Button size="compact-sm" variant="default" onClick={onBack}>
            Back to current
          </Button>
        </Group>
      </Paper>
      <PreviewFrame
        title={`Page preview, version ${version}`}
        html={preview.data}
        error={preview.error}
        pending={preview.isFetching}
        fitHeight={viewport > 0 ? Math.max(360, viewport - 300) : undefined}
      />
    </section>
  );
}
