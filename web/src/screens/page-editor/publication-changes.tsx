import { Alert, Badge, Button, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import type { PageWithBlocks } from './use-page-blocks';
import { VersionChangesList } from './version-changes-list';

/**
 * The page's publication status (`published_version`, `has_unpublished_changes`),
 * read only for a published page: under the page's key, so that every write,
 * which reads the page again, reads it again too.
 */
export function usePublicationStatus(page: PageWithBlocks) {
  const api = useApi();
  return useQuery({
    queryKey: ['page', page.id, 'publication'],
    queryFn: () => unwrap(api.GET('/api/pages/{id}/publication', { params: { path: { id: page.id } } })),
    enabled: page.is_published,
  });
}

/** What the site lacks: the changes from the version it has to the page now, by block name and field label. */
function ChangesSincePublication({ page, published }: { page: PageWithBlocks; published: number | null }) {
  if (published === null)
    return (
      <Text size="sm">
        The page was published before its history began: which version the site has is not known. Publish an update to
        send the page as it is now.
      </Text>
    );
  return <VersionChangesList pageId={page.id} from={published} to={page.version} />;
}

/**
 * In the editor's header: "Changed since publication" when the site shows an
 * older version of the page than the one being edited, with what changed.
 */
export function ChangedSincePublication({ page }: { page: PageWithBlocks }) {
  const status = usePublicationStatus(page);
  const [open, setOpen] = useState(false);
  if (!page.is_published || !status.data?.has_unpublished_changes) return null;
  const published = status.data.published_version;
  return (
    <>
      <Badge variant="light" color="blue">
        Changed since publication
      </Badge>
      <Button size="compact-sm" variant="subtle" onClick={() => setOpen(true)}>
        What changed since publication
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Changed since publication" size="lg">
        <Stack>
          <Text size="sm">
            {published === null
              ? 'The site shows an earlier state of this page.'
              : `The site shows version ${published}; the page is at version ${page.version}. Publish an update to send these changes:`}
          </Text>
          <ChangesSincePublication page={page} published={published} />
        </Stack>
      </Modal>
    </>
  );
}

/** In the publishing dialog: what "Publish update" would send, when the site is behind. */
export function UnpublishedChanges({
  page,
  status,
}: {
  page: PageWithBlocks;
  status: { is_published: boolean; has_unpublished_changes: boolean; published_version: number | null };
}) {
  if (!status.is_published) return null;
  if (!status.has_unpublished_changes)
    return <Text size="sm">The site has the current version of the page (version {page.version}).</Text>;
  return (
    <Alert color="orange" role="note" title="Changed since publication">
      <Stack gap={4}>
        <Text size="sm">
          {status.published_version === null
            ? 'The site shows an earlier state of this page.'
            : `The site shows version ${status.published_version}; the page is at version ${page.version}. Publish update sends:`}
        </Text>
        <ChangesSincePublication page={page} published={status.published_version} />
      </Stack>
    </Alert>
  );
}
