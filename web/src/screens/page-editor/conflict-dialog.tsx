import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { usePageWriteGuard } from '../../api/client';
import type { VersionConflict } from '../../api/page-versions';
import { VersionChangesList } from './version-changes-list';

/**
 * The editor's side of "no lost updates": its writes expect the version of
 * the page it shows (the client's PageWriteGuard sends it as If-Match), and a
 * write refused because the page changed elsewhere comes back here as the
 * conflict to explain. While the person has unsaved values, the version they
 * are based on is kept: a page read again meanwhile does not make their save
 * go over a change they have not seen. Without unsaved values, a page read
 * again with a change made elsewhere is taken as the new base, and
 * `onForeign` told, so that the open form starts again from the stored values.
 */
export function useVersionConflict(pageId: number, version: number | undefined, dirty: boolean, onForeign: () => void) {
  const guard = usePageWriteGuard();
  const [conflict, setConflict] = useState<VersionConflict | null>(null);
  useEffect(() => {
    if (version === undefined || dirty) return;
    const known = guard.expected(pageId);
    // The editor's own writes move the guard on before their page is shown: a later version is someone else's.
    if (known !== undefined && version > known) onForeign();
    guard.advance(pageId, version);
  }, [guard, pageId, version, dirty, onForeign]);
  useEffect(() => () => guard.forget(pageId), [guard, pageId]);
  useEffect(
    () =>
      guard.onConflict((found) => {
        if (found.pageId === pageId) setConflict(found);
      }),
    [guard, pageId],
  );
  return { conflict, clear: () => setConflict(null) };
}

/**
 * Says in words that the page was changed elsewhere and that nothing was
 * overwritten; shows what changed (from the version the editor had to the
 * current one, by block name and field label); and lets the person reload
 * the page (asking first when that loses unsaved values) or keep their
 * changes, to save them again over the current page.
 */
export function ConflictDialog({
  pageId,
  conflict,
  unsaved,
  onReload,
  onClose,
}: {
  pageId: number;
  conflict: VersionConflict | null;
  /** The person has values not saved: reloading loses them. */
  unsaved: boolean;
  /** Drop the unsaved values and read the page again: the editor shows it as it is now. */
  onReload: () => void;
  onClose: () => void;
}) {
  const guard = usePageWriteGuard();
  const queryClient = useQueryClient();
  const [showing, setShowing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const close = () => {
    setShowing(false);
    setConfirming(false);
    onClose();
  };
  // Keep: the next save expects the current version, so it goes over it, as the person chose.
  const keep = () => {
    if (conflict) guard.advance(pageId, conflict.current);
    void queryClient.invalidateQueries({ queryKey: ['page', pageId] });
    close();
  };
  const reload = () => {
    onReload();
    close();
  };
  return (
    <Modal opened={conflict !== null} onClose={close} title="This page was changed elsewhere" size="lg">
      {conflict && (
        <Stack>
          <Text size="sm">
            This page was changed elsewhere after you opened it: in another tab or window, by someone else, or by an
            agent. It is now at version {conflict.current}; you were editing version {conflict.expected}. Your last
            change was not saved, and nothing of theirs was overwritten.
          </Text>
          {showing ? (
            <Stack gap={4} component="section" aria-label="What changed elsewhere">
              <Text size="sm" fw={500}>
                What changed since you opened the page:
              </Text>
              <VersionChangesList pageId={pageId} from={conflict.expected} to={conflict.current} />
            </Stack>
          ) : (
            <Group>
              <Button variant="default" onClick={() => setShowing(true)}>
                See what changed
              </Button>
            </Group>
          )}
          {confirming ? (
            <Alert color="red" role="alert" title="Reload and lose your unsaved changes?">
              <Stack gap="xs">
                <Text size="sm">Reloading shows the page as it is now. The changes you have not saved are lost.</Text>
                <Group justify="flex-end">
                  <Button variant="default" onClick={() => setConfirming(false)}>
                    Back
                  </Button>
                  <Button color="red" onClick={reload}>
                    Reload and lose my changes
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : (
            <Group justify="flex-end">
              <Button variant="default" onClick={keep}>
                Keep my changes
              </Button>
              <Button onClick={() => (unsaved ? setConfirming(true) : reload())} data-autofocus>
                Reload the page
              </Button>
            </Group>
          )}
          {!confirming && (
            <Text size="xs" c="dimmed">
              Keep my changes: what you have not saved stays in the editor, and saving it again writes it over the
              current page. Reload the page: the editor shows the page as it is now.
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}
