import { Parser } from 'htmlparser2';

const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'ul',
  'ol',
  'table',
  'tr',
  'blockquote',
  'figure',
  'br',
]);
const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'head', 'title']);
const MAX_CHARS = 4000;

/**
 * A rendered page as short text an agent can read: headings as `#`, list items
 * as `-`, images as `[image: alt]`, links with their target; scripts, styles
 * and markup dropped. Cut at about 4,000 characters.
 */
export function outlineOf(html: string): string {
  const lines: string[] = [];
  let current = '';
  let skipping = 0;
  const flush = () => {
    const text = current.replace(/\s+/g, ' ').trim();
    if (text) lines.push(text);
    current = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (SKIP_TAGS.has(name)) skipping++;
        if (skipping) return;
        if (/^h[1-6]$/.test(name)) {
          flush();
          current = `${'#'.repeat(Number(name[1]))} `;
        } else if (name === 'li') {
          flush();
          current = '- ';
        } else if (BLOCK_TAGS.has(name)) flush();
        else if (name === 'img') current += ` [image: ${attributes.alt || attributes.src || ''}] `;
      },
      ontext(text) {
        if (!skipping) current += text;
      },
      onclosetag(name) {
        if (SKIP_TAGS.has(name)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        if (/^h[1-6]$/.test(name) || name === 'li' || BLOCK_TAGS.has(name)) flush();
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  const text = lines.join('\n');
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n… (cut; the whole page is in the HTML)` : text;
}
