import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap, useApi } from '../api/client';
import { errorMessage } from '../api/errors';
import { AddBlockDrawer } from './page-editor/add-block-drawer';
import { BlockList } from './page-editor/block-list';
import { InstanceDrawer } from './page-editor/instance-editor';
import { OutdatedBlocks } from './page-editor/outdated-blocks';
import { PageDetailsDrawer } from './page-editor/page-details';
import { PublishPanel } from './page-editor/publish-panel';
import { PagePreview, type InstanceDraft } from './page-editor/page-preview';
import { RemoveBlockModal } from './page-editor/remove-block-modal';
import { usePageBlocks, type Instance } from './page-editor/use-page-blocks';

/** The page editor: its blocks in order (add, remove, reorder) and its preview with stub data, at three widths. */
export function PageScreen() {
  const id = Number(useParams().id);
  const api = useApi();
  // Adding: false, or where to (null: the page; an instance: inside that layout).
  const [adding, setAdding] = useState<false | Instance | null>(false);
  const [removing, setRemoving] = useState<Instance | null>(null);
  const [editing, setEditing] = useState<Instance | null>(null);
  const [details, setDetails] = useState(false);
  // The open panel's unsaved values and bindings: the preview shows them before they are saved.
  const [draft, setDraft] = useState<InstanceDraft | null>(null);
  const { add, remove, move } = usePageBlocks(id);
  const page = useQuery({
    queryKey: ['page', id],
    queryFn: () => unwrap(api.GET('/api/pages/{id}', { params: { path: { id }, query: { with_blocks: 1 } } })),
  });

  if (page.isPending) return <Text c="dimmed">Loading…</Text>;
  if (page.isError)
    return (
      <Alert color="red" title="Cannot open this page" role="alert">
        {errorMessage(page.error)}
      </Alert>
    );
  const blocks = page.data.blocks ?? [];
  return (
    <Stack maw={1320}>
      <Anchor component={Link} to="/pages" size="sm">
        ← Pages
      </Anchor>
      <Group gap="sm">
        <Title order={1}>{page.data.name}</Title>
        <Badge variant="dot" color={page.data.is_published ? 'green' : 'gray'}>
          {page.data.is_published ? 'Published' : 'Draft'}
        </Badge>
        <Button variant="default" size="xs" onClick={() => setDetails(true)}>
          Edit details
        </Button>
      </Group>
      <PageDetailsDrawer
        page={page.data}
        opened={details}
        onClose={() => setDetails(false)}
        onSaved={() => undefined /* the preview refetches with the page */}
      />
      <PublishPanel page={page.data} />
      <OutdatedBlocks
        pageId={id}
        blocks={blocks}
        onChanged={() => undefined /* the preview refetches with the page */}
      />
      <section aria-labelledby="blocks-title">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h3" id="blocks-title">
            Blocks
          </Title>
          <Button
            onClick={() => {
              add.reset();
              setAdding(null);
            }}
          >
            Add a block
          </Button>
        </Group>
        {move.isError && (
          <Alert color="red" role="alert" title="Could not move the block" mb="xs">
            {errorMessage(move.error)}
          </Alert>
        )}
        {blocks.length === 0 ? (
          <Text size="sm">This page has no blocks yet.</Text>
        ) : (
          <BlockList
            blocks={blocks}
            busy={move.isPending}
            onMove={(change) => move.mutate(change)}
            onAddInto={(layout) => {
              add.reset();
              setAdding(layout);
            }}
            onEdit={setEditing}
            onRemove={(instance) => {
              remove.reset();
              setRemoving(instance);
            }}
          />
        )}
        <AddBlockDrawer
          opened={adding !== false}
          into={adding || null}
          onClose={() => setAdding(false)}
          adding={add.isPending}
          error={add.error}
          onAdd={(blockId) =>
            add.mutate({ blockId, parent: adding ? adding.id : null }, { onSuccess: () => setAdding(false) })
          }
        />
        <InstanceDrawer pageId={id} instance={editing} onClose={() => setEditing(null)} onDraft={setDraft} />
        <RemoveBlockModal
          instance={removing}
          pending={remove.isPending}
          error={remove.error}
          onCancel={() => setRemoving(null)}
          onConfirm={(instance) => remove.mutate(instance.id, { onSuccess: () => setRemoving(null) })}
        />
      </section>
      <PagePreview pageId={id} title={page.data.meta_title ?? page.data.name} blocks={blocks} draft={draft} />
    </Stack>
  );
}
