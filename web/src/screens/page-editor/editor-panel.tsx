import { Alert, Badge, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../api/errors';
import { AddBlockModal } from './add-block-modal';
import { BlockList } from './block-list';
import { FieldsPanel, type TypedText } from './fields-panel';
import type { EditableText } from '../sandboxed-html';
import { HistoryPanel } from './history-panel';
import { OutdatedBlocks } from './outdated-blocks';
import type { InstanceDraft } from './page-preview';
import { RemoveBlockModal } from './remove-block-modal';
import { usePageBlocks, type Instance, type PageWithBlocks } from './use-page-blocks';

/** The panel's tabs, always in this order (docs/editor-layout.md). */
export const TABS = ['blocks', 'fields', 'history', 'updates'] as const;
export type Tab = (typeof TABS)[number];

/**
 * The panel beside the page: Blocks (the page's outline: add, remove,
 * reorder, nest), Fields (the chosen block's values and bindings), History
 * and Updates (blocks with newer revisions). Every tab stays mounted, so that
 * unsaved values survive a look at another tab.
 */
export function EditorPanel({
  page,
  typed,
  onEditable,
  fieldsKey,
  tab,
  onTab,
  instance,
  onEdit,
  onDirty,
  onDraft,
  onSaved,
  onShowOnPage,
  shownVersion,
  onShowVersion,
}: {
  page: PageWithBlocks;
  /** A value typed on the page, in place, for the Fields form. */
  typed?: TypedText | null;
  /** The chosen block's plain text fields, for editing in place. */
  onEditable?: (fields: Record<string, EditableText> | null) => void;
  /** Changes when the Fields form must start again from the stored values (the page was changed elsewhere). */
  fieldsKey: number;
  tab: Tab;
  onTab: (tab: Tab) => void;
  instance: Instance | null;
  onEdit: (instance: Instance) => void;
  onDirty: (dirty: boolean) => void;
  onDraft: (draft: InstanceDraft | null) => void;
  onSaved: () => void;
  onShowOnPage?: () => void;
  shownVersion: number | null;
  onShowVersion: (version: number | null) => void;
}) {
  const blocks = page.blocks ?? [];
  const outdated = blocks.filter((b) => b.update_status !== 'up_to_date').length;
  return (
    <Tabs value={tab} onChange={(value) => value && onTab(value as Tab)} keepMounted>
      <Tabs.List grow aria-label="Edit the page">
        <Tabs.Tab value="blocks">Blocks</Tabs.Tab>
        <Tabs.Tab value="fields">Fields</Tabs.Tab>
        <Tabs.Tab value="history">History</Tabs.Tab>
        <Tabs.Tab
          value="updates"
          rightSection={
            outdated > 0 ? (
              <Badge size="xs" circle aria-label={`${outdated} outdated`}>
                {outdated}
              </Badge>
            ) : undefined
          }
        >
          Updates
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="blocks" pt="sm">
        <BlocksTab pageId={page.id} blocks={blocks} onEdit={onEdit} />
      </Tabs.Panel>
      <Tabs.Panel value="fields" pt="sm">
        <FieldsPanel
          key={fieldsKey}
          pageId={page.id}
          siteId={page.site_id ?? null}
          typed={typed}
          onEditable={onEditable}
          instance={instance}
          onDirty={onDirty}
          onDraft={onDraft}
          onSaved={onSaved}
          onShowOnPage={onShowOnPage}
        />
      </Tabs.Panel>
      <Tabs.Panel value="history" pt="sm">
        <HistoryPanel
          page={page}
          shown={shownVersion}
          onShow={onShowVersion}
          active={tab === 'history' || shownVersion !== null}
        />
      </Tabs.Panel>
      <Tabs.Panel value="updates" pt="sm">
        <OutdatedBlocks
          pageId={page.id}
          siteId={page.site_id ?? null}
          blocks={blocks}
          onChanged={() => undefined /* the page refetches */}
        />
      </Tabs.Panel>
    </Tabs>
  );
}

/** The page's outline: its blocks as a tree, added, removed, reordered and nested here. */
function BlocksTab({
  pageId,
  blocks,
  onEdit,
}: {
  pageId: number;
  blocks: Instance[];
  onEdit: (instance: Instance) => void;
}) {
  // Adding: false, or where to (null: the page; an instance: inside that layout).
  const [adding, setAdding] = useState<false | Instance | null>(false);
  const [removing, setRemoving] = useState<Instance | null>(null);
  const { add, remove, move } = usePageBlocks(pageId);
  return (
    <Stack gap="sm" component="section" aria-label="Blocks">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {blocks.length === 0
            ? 'This page has no blocks yet.'
            : `${blocks.length} block${blocks.length === 1 ? '' : 's'}, in the page’s order.`}
        </Text>
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
        <Alert color="red" role="alert" title="Could not move the block">
          {errorMessage(move.error)}
        </Alert>
      )}
      {blocks.length > 0 && (
        <BlockList
          blocks={blocks}
          busy={move.isPending}
          onMove={(change) => move.mutate(change)}
          onAddInto={(layout) => {
            add.reset();
            setAdding(layout);
          }}
          onEdit={onEdit}
          onRemove={(instance) => {
            remove.reset();
            setRemoving(instance);
          }}
        />
      )}
      <AddBlockModal
        opened={adding !== false}
        into={adding || null}
        onClose={() => setAdding(false)}
        adding={add.isPending}
        error={add.error}
        onAdd={(blockId) =>
          add.mutate({ blockId, parent: adding ? adding.id : null }, { onSuccess: () => setAdding(false) })
        }
      />
      <RemoveBlockModal
        instance={removing}
        pending={remove.isPending}
        error={remove.error}
        onCancel={() => setRemoving(null)}
        onConfirm={(instance) => remove.mutate(instance.id, { onSuccess: () => setRemoving(null) })}
      />
    </Stack>
  );
}
