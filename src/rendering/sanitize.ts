/**
 * The one HTML sanitize policy of the service. Markdown output and `richtext`
 * values both end up unescaped inside a page, so both go through here; a tag
 * or scheme allowed in one place and not the other would be a hole.
 */
import sanitizeHtml from 'sanitize-html';

/** What GitHub Flavored Markdown produces (marked with `gfm: true`), nothing more. */
const MARKDOWN_TAGS = [
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'ul',
  'ol',
  'li',
  'input',
  'a',
  'strong',
  'em',
  'del',
  'img',
  'blockquote',
  'pre',
  'code',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];

/** Richtext editors emit a few more inline formatting tags than Markdown can express. */
const RICHTEXT_EXTRA_TAGS = ['b', 'i', 'u', 's', 'sub', 'sup', 'mark', 'small'];

const ALIGN = { name: 'align', multiple: false, values: ['left', 'center', 'right'] };

function policy(extraTags: string[]): sanitizeHtml.IOptions {
  return {
    allowedTags: [...MARKDOWN_TAGS, ...extraTags],
    allowedAttributes: {
      a: ['href', 'title'],
      img: ['src', 'alt', 'title'],
      th: [ALIGN],
      td: [ALIGN],
      ol: ['start'],
      // GFM task lists render `<input type="checkbox" disabled>`; nothing else of a form survives.
      input: [{ name: 'type', multiple: false, values: ['checkbox'] }, 'checked', 'disabled'],
    },
    // Fenced code blocks carry their language for client-side highlighters.
    allowedClasses: { code: ['language-*'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: true,
    // `discard` drops a forbidden tag but keeps its text; script and style bodies go entirely.
    disallowedTagsMode: 'discard',
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
    transformTags: {
      // A checkbox in rendered content is a display, never a form control.
      input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: '' } }),
    },
    // An `<input>` whose type was not checkbox lost its `type` above and would render a text box.
    exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  };
}

const MARKDOWN_POLICY = policy([]);
const RICHTEXT_POLICY = policy(RICHTEXT_EXTRA_TAGS);

/** Sanitizes the HTML that `marked` produced from GFM. */
export function sanitizeMarkdownHtml(html: string): string {
  return sanitizeHtml(html, MARKDOWN_POLICY);
}

/** Sanitizes a `richtext` value: the Markdown policy plus a few inline formatting tags. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, RICHTEXT_POLICY);
}
