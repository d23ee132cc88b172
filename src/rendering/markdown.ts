/**
 * GitHub Flavored Markdown → sanitized HTML, for the `_markdown` value of
 * markdown blocks. `marked` does not sanitize (raw HTML passes through, which
 * is how `<br>` in a table cell works), so its output always goes through the
 * shared policy in sanitize.ts.
 */
import { Marked } from 'marked';
import { sanitizeMarkdownHtml } from './sanitize.js';

// An instance of our own, so nothing that calls `marked.use()` elsewhere changes this output.
const markdown = new Marked({ gfm: true, breaks: false });

export function renderMarkdown(md: string): string {
  const html = markdown.parse(md, { async: false });
  return sanitizeMarkdownHtml(html);
}
