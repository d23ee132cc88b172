import { useEffect, type RefObject } from 'react';

/**
 * Ctrl+S (Cmd+S on a Mac) submits the form inside `box`, wherever the focus
 * is in the app, as its Save button would: the browser's own "Save page as"
 * would save the editor's HTML, never what a user means by it. Enter, in a
 * multi-line field, stays a line break.
 */
export function useSaveShortcut(box: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (event.key.toLowerCase() !== 's') return;
      const form = box.current?.querySelector('form');
      if (!form) return;
      event.preventDefault();
      form.requestSubmit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [box]);
}
