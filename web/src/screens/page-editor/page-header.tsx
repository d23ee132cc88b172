import { Anchor, Badge, Button, Group, Modal, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageDetailsModal } from './page-details';
import { ChangedSincePublication } from './publication-changes';
import { PublishPanel } from './publish-panel';
import type { PageWithBlocks } from './use-page-blocks';

/**
 * The editor's header: the way back, the page's name, its state in one
 * badge (and a second when the site shows an older version, with what
 * changed since), and the page's details and publishing, each in a dialog.
 */
export function PageHeader({ page }: { page: PageWithBlocks }) {
  const [details, setDetails] = useState(false);
  const [publishing, setPublishing] = useState(false);
  return (
    <Stack gap={4}>
      <Anchor component={Link} to="/pages" size="sm">
        ← Pages
      </Anchor>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {page.name}
          </Title>
          <Badge variant="dot" color={page.is_published ? 'green' : 'gray'}>
            {page.is_published ? 'Published' : 'Draft'}
          </Badge>
          <ChangedSincePublication page={page} />
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={() => setDetails(true)}>
            Details
          </Button>
          <Button onClick={() => setPublishing(true)}>Publish</Button>
        </Group>
      </Group>
      <PageDetailsModal
        page={page}
        opened={details}
        onClose={() => setDetails(false)}
        onSaved={() => undefined /* the preview refetches with the page */}
      />
      <Modal opened={publishing} onClose={() => setPublishing(false)} title="Publish the page" size="lg">
        <PublishPanel page={page} />
      </Modal>
    </Stack>
  );
}
