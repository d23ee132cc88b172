import { useEffect } from 'react';

/**
 * The browser tab's title for the screen that renders it: `Sites · Pageblocks`.
 * Placed beside the screen's heading, so that the tab says what the heading says
 * (several tabs of the app are told apart, and a screen reader announces it).
 */
export function DocumentTitle({ title }: { title: string }) {
  useEffect(() => {
    document.title = `${title} · Pageblocks`;
  }, [title]);
  return null;
}
