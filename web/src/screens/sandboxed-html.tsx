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

const shown = new WeakMap<HTMLIFrameElement, { html: string; title: string }>();

/** The HTML a frame shows now: its document is out of reach in an opaque origin, so tests read it here. */
export const htmlShownIn = (frame: Element): string | undefined => shown.get(frame as HTMLIFrameElement)?.html;

// To the host page only: before it has loaded, the message goes to the frame's first (empty) document and is
// lost, and the load sends it again.
function send(frame: HTMLIFrameElement | null) {
  const content = frame && shown.get(frame);
  if (content) frame.contentWindow?.postMessage(content, '*');
}

/**
 * Rendered HTML in a sandboxed frame without same-origin: the blocks' JS
 * runs in an opaque origin and can reach neither the app nor its session.
 */
export function SandboxedHtml({
  title,
  html,
  style,
  width,
}: {
  title: string;
  html: string;
  style?: CSSProperties;
  /** The device width shown, as `data-width` (tests and styles read it). */
  width?: string;
}) {
  const ref = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    shown.set(frame, { html, title });
    send(frame);
  }, [html, title]);
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
