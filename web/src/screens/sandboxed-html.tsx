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

/** A plain text field of the chosen block, as in-place editing needs it. */
export interface EditableText {
  value: string;
  label: string;
  multiline: boolean;
}

/** Picking blocks on a marked preview (`?marks=1`): names for the outline, the chosen block, and what a click chose. */
export interface Picking {
  names: Record<number, string>;
  selected: number | null;
  /** Told the instance clicked on; only ever one of `names`' ids. A choice of what to show, never an action. */
  onPick: (id: number) => void;
  /** The chosen block's plain text fields by name: editable in place where the page shows their value as text. */
  editable?: Record<string, EditableText>;
  /** Told what was typed in place: only for the chosen block and one of `editable`'s fields. A value, never a save. */
  onText?: (field: string, value: string) => void;
}

interface Content {
  html: string;
  title: string;
  pick?: {
    names: Record<number, string>;
    selected: number | null;
    editable?: EditableBlock;
  };
}

interface EditableBlock {
  block: number;
  fields: Record<string, EditableText>;
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

const MAX_TEXT = 100_000;

/**
 * What a message from the host page says was typed in place: `{pb: 'text',
 * block, field, value}` from that frame's window (the host's own box; the
 * rendered page's scripts post from their own window, and the host relays no
 * text), exactly those keys, for the chosen block and a field offered.
 */
export function typedIn(
  event: MessageEvent,
  frame: HTMLIFrameElement | null,
  selected: number | null,
  editable: Record<string, EditableText> | undefined,
): { field: string; value: string } | null {
  if (!frame || !editable || event.source === null || event.source !== frame.contentWindow) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const keys = Object.keys(data).sort().join(',');
  if (keys !== 'block,field,pb,value') return null;
  const { pb, block, field, value } = data as Record<string, unknown>;
  if (pb !== 'text' || block !== selected || typeof field !== 'string' || typeof value !== 'string') return null;
  if (!Object.hasOwn(editable, field) || value.length > MAX_TEXT) return null;
  return { field, value };
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
  const editable = pick?.editable;
  const editableKey = editable && selected !== null ? JSON.stringify(editable) : '';
  const editableRef = useRef<EditableBlock | undefined>(undefined);
  editableRef.current = editableKey && selected !== null ? { block: selected, fields: editable! } : undefined;
  const onText = useRef(pick?.onText);
  onText.current = pick?.onText;
  const textState = useRef({ selected, editable });
  textState.current = { selected, editable };

  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    const content: Content = { html, title };
    if (namesKey)
      content.pick = {
        names: JSON.parse(namesKey) as Record<number, string>,
        selected: selectedRef.current,
        ...(editableRef.current ? { editable: editableRef.current } : {}),
      };
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

  // The chosen block's text fields (their values follow the form) without rendering the page again.
  useEffect(() => {
    const frame = ref.current;
    const content = frame && shown.get(frame);
    if (!frame || !content?.pick) return;
    const next = editableRef.current;
    content.pick = { ...content.pick, ...(next ? { editable: next } : {}) };
    if (!next) delete content.pick.editable;
    frame.contentWindow?.postMessage({ pbEditable: next ?? null }, '*');
  }, [editableKey, selected]);

  useEffect(() => {
    if (!namesKey) return;
    const listen = (event: MessageEvent) => {
      const typed = typedIn(event, ref.current, textState.current.selected, textState.current.editable);
      if (typed) onText.current?.(typed.field, typed.value);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [namesKey]);

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
