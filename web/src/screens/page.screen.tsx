import { Box, Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { unwrap, useApi } from '../api/client';
import { useUnsavedChanges } from '../forms/unsaved-changes';
import { DocumentTitle } from '../shell/document-title';
import { ScreenError } from '../shell/screen-error';
import { ConflictDialog, useVersionConflict } from './page-editor/conflict-dialog';
import { displayNames } from './page-editor/display-names';
import { EditorPanel, TABS, type Tab } from './page-editor/editor-panel';
import { PageHeader } from './page-editor/page-header';
import { PagePreview, type InstanceDraft } from './page-editor/page-preview';
import { VersionPreview } from './page-editor/version-preview';
import type { TypedText } from './page-editor/fields-panel';
import type { EditableText } from './sandboxed-html';

/** The panel beside the page from this width on (docs/editor-layout.md); one switched column below it. */
export const WIDE = '(min-width: 80em)';

/**
 * The page editor (docs/editor-layout.md): the page, rendered with stub data,
 * beside a panel of four tabs (Blocks, Fields, History, Updates) at 1280 px
 * and wider; under that, one column switched between Page and Edit. The tab,
 * the chosen block and the version shown are in the address, so reload and
 * Back keep the place. Clicking a block on the page chooses it and opens its
 * Fields tab; another block never silently takes the place of unsaved values.
 */
export function PageScreen() {
  const id = Number(useParams().id);
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const wide = useMediaQuery(WIDE, true, { getInitialValueInEffect: false });
  const [view, setView] = useState<'page' | 'edit'>(() => (params.has('tab') ? 'edit' : 'page'));
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as Tab)
    : 'blocks';
  const wanted = Number(params.get('block')) || null;
  // A past version shown on the page in place of the current one (the History tab).
  const shownVersion = Number(params.get('version')) || null;
  // The block whose form is open: it follows the address unless that would drop unsaved values.
  const [editing, setEditing] = useState<number | null>(wanted);
  const [dirty, setDirty] = useState(false);
  const [draft, setDraft] = useState<InstanceDraft | null>(null);
  // In place: the chosen block's text fields (from its form), and the last value typed on the page (to its form).
  const [editable, setEditable] = useState<Record<string, EditableText> | null>(null);
  const [typed, setTyped] = useState<TypedText | null>(null);
  const onText = useCallback(
    (field: string, value: string) => setTyped((last) => ({ field, value, n: (last?.n ?? 0) + 1 })),
    [],
  );
  useUnsavedChanges(dirty);
  const asking = wanted !== editing && dirty ? wanted : undefined;
  useEffect(() => {
    if (wanted !== editing && !dirty) setEditing(wanted);
  }, [wanted, editing, dirty]);

  const page = useQuery({
    queryKey: ['page', id],
    queryFn: () => unwrap(api.GET('/api/pages/{id}', { params: { path: { id }, query: { with_blocks: 1 } } })),
  });
  // Every write expects the version shown; a change made elsewhere is a conflict said in words (conflict-dialog.tsx).
  const queryClient = useQueryClient();
  const [fieldsKey, setFieldsKey] = useState(0);
  const restartFields = useCallback(() => setFieldsKey((key) => key + 1), []);
  const { conflict, clear: clearConflict } = useVersionConflict(id, page.data?.version, dirty, restartFields);
  const reload = useCallback(async () => {
    setDirty(false);
    setDraft(null);
    await queryClient.invalidateQueries({ queryKey: ['page', id] });
    restartFields();
  }, [queryClient, id, restartFields]);

  const go = useCallback(
    (next: { tab?: Tab; block?: number | null; version?: number | null }) =>
      setParams((current) => {
        const to = new URLSearchParams(current);
        if (next.tab) to.set('tab', next.tab);
        if (next.block !== undefined) {
          if (next.block === null) to.delete('block');
          else to.set('block', String(next.block));
        }
        if (next.version !== undefined) {
          if (next.version === null) to.delete('version');
          else to.set('version', String(next.version));
        }
        return to;
      }),
    [setParams],
  );
  const choose = useCallback(
    (block: number) => {
      go({ tab: 'fields', block });
      setView('edit');
    },
    [go],
  );

  if (page.isPending) return <Text c="dimmed">Loading…</Text>;
  if (page.isError)
    return (
      <ScreenError
        title="Cannot open this page"
        error={page.error}
        what="page"
        back={{ to: '/pages', label: 'Pages' }}
      />
    );
  const blocks = page.data.blocks ?? [];
  const instance = blocks.find((b) => b.id === editing) ?? null;
  const names = displayNames(blocks);

  const preview = shownVersion ? (
    <VersionPreview pageId={id} version={shownVersion} onBack={() => go({ version: null })} />
  ) : (
    <PagePreview
      pageId={id}
      title={page.data.meta_title ?? page.data.name}
      blocks={blocks}
      draft={draft}
      pick={{
        names,
        selected: instance?.id ?? null,
        onPick: choose,
        ...(editable && instance ? { editable, onText } : {}),
      }}
    />
  );
  const panel = (
    <EditorPanel
      page={page.data}
      typed={typed}
      onEditable={setEditable}
      fieldsKey={fieldsKey}
      tab={tab}
      onTab={(next) => go({ tab: next })}
      instance={instance}
      onEdit={(chosen) => choose(chosen.id)}
      onDirty={setDirty}
      onDraft={setDraft}
      onSaved={() => (wide ? undefined : setView('page'))}
      onShowOnPage={wide ? undefined : () => setView('page')}
      shownVersion={shownVersion}
      onShowVersion={(version) => {
        go({ tab: 'history', version });
        if (version !== null) setView('page');
      }}
    />
  );
  return (
    <Stack gap="sm">
      <DocumentTitle title={page.data.name} />
      <PageHeader page={page.data} />
      {!wide && (
        <SegmentedControl
          aria-label="View"
          value={view}
          onChange={(value) => setView(value)}
          data={[
            { value: 'page', label: 'Page' },
            { value: 'edit', label: 'Edit' },
          ]}
        />
      )}
      {/* One tree at every width (only styles change): crossing 1280 px keeps unsaved values and open dialogs. */}
      <Box style={wide ? { display: 'flex', alignItems: 'flex-start', gap: 'var(--mantine-spacing-md)' } : undefined}>
        <Box
          hidden={!wide && view !== 'page'}
          style={
            wide
              ? { flex: 1, minWidth: 0, position: 'sticky', top: 'calc(var(--app-shell-header-height) + 8px)' }
              : undefined
          }
        >
          {preview}
        </Box>
        <Box hidden={!wide && view !== 'edit'} style={wide ? { flex: 'none', width: 440 } : undefined}>
          {panel}
        </Box>
      </Box>
      <ConflictDialog
        pageId={id}
        conflict={conflict}
        unsaved={dirty}
        onReload={() => void reload()}
        onClose={clearConflict}
      />
      <Modal opened={asking !== undefined} onClose={() => go({ block: editing })} title="Discard unsaved changes?">
        <Stack>
          <Text>
            The changes to “{instance?.block.name}” are not saved. Opening {asking ? `“${names[asking]}”` : 'another'}{' '}
            discards them.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => go({ block: editing })} data-autofocus>
              Keep editing
            </Button>
            <Button
              color="red"
              onClick={() => {
                setDirty(false);
                setDraft(null);
                setEditing(asking ?? null);
              }}
            >
              Discard changes
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
