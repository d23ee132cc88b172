import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useBlocker } from 'react-router';

type Report = (key: string, dirty: boolean) => void;
const UnsavedContext = createContext<Report | null>(null);

/**
 * Guards the app's routes against losing edits: while any form below has
 * reported unsaved changes (`useUnsavedChanges(dirty)`), leaving for another
 * route asks first, and closing or reloading the tab makes the browser ask.
 * One guard for all forms, because react-router keeps one blocker at a time.
 */
export function UnsavedChangesGuard({ children }: { children: ReactNode }) {
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set());
  // The same set, current at once: a form that saves and then navigates releases its key in the same
  // event, before React has rendered the state again, and the blocker must already let it go.
  const dirtyNow = useRef(new Set<string>());
  const report = useCallback<Report>((key, isDirty) => {
    if (isDirty) dirtyNow.current.add(key);
    else dirtyNow.current.delete(key);
    setDirty((current) => {
      if (current.has(key) === isDirty) return current;
      const next = new Set(current);
      if (isDirty) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  const any = dirty.size > 0;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyNow.current.size > 0 && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!any) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [any]);

  return (
    <UnsavedContext.Provider value={report}>
      {children}
      <Modal
        opened={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title="Leave without saving?"
        zIndex={1000}
      >
        <Stack>
          <Text>You have changes that are not saved. If you leave now, they are lost.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
              Stay and keep editing
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              Leave without saving
            </Button>
          </Group>
        </Stack>
      </Modal>
    </UnsavedContext.Provider>
  );
}

/**
 * Reports a form's unsaved changes to the guard (a no-op outside one).
 * Returns `release()`: call it when the changes are saved and the form
 * navigates away in the same event (`release(); navigate(...)`).
 */
export function useUnsavedChanges(dirty: boolean): () => void {
  const report = useContext(UnsavedContext);
  const key = useId();
  useEffect(() => {
    report?.(key, dirty);
  }, [report, key, dirty]);
  useEffect(() => () => report?.(key, false), [report, key]);
  return useCallback(() => report?.(key, false), [report, key]);
}
