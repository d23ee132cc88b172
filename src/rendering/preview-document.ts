import type { RenderedPage } from '../modules/publishing/publishing.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

export function previewDocument(page: RenderedPage & { title: string }): string {
  // Block CSS and JS are the authors' own code, but a `</style>` or `</script>` inside them must not end the element early.
  const css = page.css.replace(/<\/style/gi, '<\\/style');
  const js = page.js.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
  return [
    '<!doctype html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    ...(css.trim() !== '' ? [`<style>\n${css}\n</style>`] : []),
    '</head>',
    '<body>',
    page.html,
    ...(js.trim() !== '' ? [`<script>\n${js}\n</script>`] : []),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
