import { useEffect, useRef, type CSSProperties } from 'react';

/**
 * The page that holds rendered HTML (web/public/preview-frame.html). The
 * app's Content-Security-Policy allows no inline script, and a `srcdoc`
 * frame inherits its parent's policy: the blocks' own JS would not run in
 * it. The host page is a document of its own, served with its own policy
 * (a sandbox, nothing else, as the preview routes send), and puts the HTML
 * in a frame of its own.
 */
export const PREVIEW_HOST = '/preview-frame.html';

/** Picking blocks on a marked preview (`?marks=1`): names for the outline, the chosen block, and what a click chose. */
export interface Picking {
  names: Record<number, string>;
  selected: number | null;
  /** Told the instance clicked on; only ever one of `names`' ids. A choice of what to show, never an action. */
  onPick: (id: number) => void;
}

interface Content {
  html: string;
  title: string;
  pick?: { names: Record<number, string>; selected: number | null };
}

const shown = new WeakMap<HTMLIFrameElement, Content>();

/** The HTML a frame shows now: its document is out of reach in an opaque origin, so tests read it here. */
export const htmlShownIn = (frame: Element): string | undefined => shown.get(frame as HTMLIFrameElement)?.html;

// To the host page only: before it has loaded, the message goes to the frame's first (empty) document and is
// lost, and the load sends it again.
function send(frame: HTMLIFrameElement | null) {
  const content = frame && shown.get(frame);
  if (content) frame.contentWindow?.postMessage(content, '*');
}

/**
 * What a message from the host page says was picked: `{pb: 'pick', block}`
 * from that frame's window, with nothing else in it, naming a block that is
 * offered. The frame runs the blocks' own scripts, which can post anything:
 * whatever else is ignored.
 */
export function pickedIn(event: MessageEvent, frame: HTMLIFrameElement | null, names: Record<number, string>) {
  if (!frame || event.source === null || event.source !== frame.contentWindow) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const keys = Object.keys(data);
  if (keys.length !== 2 || !keys.includes('pb') || !keys.includes('block')) return null;
  const { pb, block } = data as { pb: unknown; block: unknown };
  if (pb !== 'pick' || typeof block !== 'number' || !Number.isInteger(block)) return null;
  return Object.hasOwn(names, block) ? block : null;
}

/**
 * Rendered HTML in a sandboxed frame without same-origin: the blocks' JS
 * runs in an opaque origin and can reach neither the app nor its session.
 * With `pick`, blocks are outlined under the pointer and a click chooses one.
 */
export function SandboxedHtml({
  title,
  html,
  style,
  width,
  pick,
}: {
  title: string;
  html: string;
  style?: CSSProperties;
  /** The device width shown, as `data-width` (tests and styles read it). */
  width?: string;
  pick?: Picking;
}) {
  const ref = useRef<HTMLIFrameElement>(null);
  const names = pick?.names;
  const namesKey = names ? JSON.stringify(names) : '';
  const selected = pick?.selected ?? null;
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const onPick = useRef(pick?.onPick);
  onPick.current = pick?.onPick;

  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    const content: Content = { html, title };
    if (namesKey)
      content.pick = { names: JSON.parse(namesKey) as Record<number, string>, selected: selectedRef.current };
    shown.set(frame, content);
    send(frame);
  }, [html, title, namesKey]);

  // A new choice outlines it without rendering the page again.
  useEffect(() => {
    const frame = ref.current;
    const content = frame && shown.get(frame);
    if (!frame || !content?.pick || content.pick.selected === selected) return;
    content.pick = { ...content.pick, selected };
    frame.contentWindow?.postMessage({ pbSelect: selected }, '*');
  }, [selected]);

  useEffect(() => {
    if (!namesKey) return;
    const offered = JSON.parse(namesKey) as Record<number, string>;
    const listen = (event: MessageEvent) => {
      const id = pickedIn(event, ref.current, offered);
      if (id !== null) onPick.current?.(id);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [namesKey]);

  return (
    <iframe
      ref={ref}
      title={title}
      sandbox="allow-scripts"
      src={PREVIEW_HOST}
      data-width={width}
      onLoad={() => send(ref.current)}
      style={style}
    />
  );
}
