import { SAFE_IMAGE_URL, SAFE_LINK_URL } from './url-patterns.js';

/**
 * The sentences a person reads about a block's field, named by its label
 * ("Heading is too long: at most 60 characters."). One source for both ends:
 * the service says them in `errors[].message` for `placeholder_values`, and
 * the web app's forms say the same words before anything is sent (it imports
 * this file). Pure: no Node, no DOM, nothing but url-patterns.
 */

/** A block's colour field: a hex colour is what templates rely on. */
export const COLOR_PATTERN = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';

/** What is read of a schema error: the keyword, its parameters, and the schema it failed (Ajv's `parentSchema`). */
export interface LabelledError {
  keyword: string;
  params: Record<string, unknown>;
  /** The schema holding the keyword: the field's for `maxLength`, the object's for `required`. */
  parentSchema?: unknown;
  /** Where the value is (`/items/0/caption`): its last key names the field when the schema gives no label. */
  instancePath: string;
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** `heading_text` → `Heading text`: a key read as words, for a field without a label. */
export function keyAsWords(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

/** The label of the field an error is about: the schema's `title`, else its key in words, else "Item n". */
export function labelOf(error: LabelledError): string {
  const schema = record(error.parentSchema);
  if (error.keyword === 'required') {
    const key = String(error.params.missingProperty);
    const title = record(record(schema.properties)[key]).title;
    return typeof title === 'string' && title.trim() ? title : keyAsWords(key);
  }
  if (typeof schema.title === 'string' && schema.title.trim()) return schema.title;
  const last = error.instancePath.split('/').pop() ?? '';
  if (/^\d+$/.test(last)) return `Item ${Number(last) + 1}`;
  return last ? keyAsWords(last.replace(/~1/g, '/').replace(/~0/g, '~')) : 'This block';
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of fields',
  null: 'empty',
};

const count = (n: unknown, one: string, many: string) => `${String(n)} ${Number(n) === 1 ? one : many}`;
const shown = (value: unknown) => (typeof value === 'string' ? `“${value}”` : JSON.stringify(value));

/** The sentence about one error of a field's value, named by the field's label. */
export function fieldMessage(error: LabelledError): string {
  const label = labelOf(error);
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return `${label} is required.`;
    case 'minLength':
      // An empty text where one is required: rjsf drops "" before it validates, and says `required`.
      return Number(p.limit) === 1
        ? `${label} is required.`
        : `${label} is too short: at least ${count(p.limit, 'character', 'characters')}.`;
    case 'maxLength':
      return `${label} is too long: at most ${count(p.limit, 'character', 'characters')}.`;
    case 'minimum':
      return `${label} is too small: at least ${String(p.limit)}.`;
    case 'maximum':
      return `${label} is too large: at most ${String(p.limit)}.`;
    case 'exclusiveMinimum':
      return `${label} is too small: more than ${String(p.limit)}.`;
    case 'exclusiveMaximum':
      return `${label} is too large: less than ${String(p.limit)}.`;
    case 'minItems':
      return `${label} needs at least ${count(p.limit, 'item', 'items')}.`;
    case 'maxItems':
      return `${label} takes at most ${count(p.limit, 'item', 'items')}.`;
    case 'uniqueItems':
      return `${label} has the same item twice.`;
    case 'type': {
      if (record(error.parentSchema)['x-widget'] === 'image')
        return `${label} must be an image address, or an image with its alt text.`;
      const types = (Array.isArray(p.type) ? (p.type as unknown[]) : String(p.type).split(',')).map(
        (t) => TYPE_WORDS[String(t)] ?? String(t),
      );
      return `${label} must be ${types.join(' or ')}.`;
    }
    case 'enum':
      return `${label} must be one of ${(p.allowedValues as unknown[]).map(shown).join(', ')}.`;
    case 'const':
      return `${label} must be ${shown(p.allowedValue)}.`;
    case 'pattern':
      if (p.pattern === SAFE_IMAGE_URL) return `${label} must be a web address (http or https) or a path on the site.`;
      if (p.pattern === SAFE_LINK_URL)
        return `${label} must be a web address (http or https), a mailto: or tel: link, or a path on the site.`;
      if (p.pattern === COLOR_PATTERN) return `${label} must be a colour such as #1e3a8a.`;
      if (p.pattern === '\\S') return `${label} is required.`;
      return `${label} is not in the form this field expects.`;
    case 'format':
      if (p.format === 'date') return `${label} must be a date (year-month-day, such as 2024-01-31).`;
      if (p.format === 'uri-reference' || p.format === 'uri') return `${label} must be a web address.`;
      if (p.format === 'email') return `${label} must be an email address.`;
      return `${label} is not a valid ${String(p.format)}.`;
    case 'additionalProperties':
      return `${keyAsWords(String(p.additionalProperty))} is not a field here.`;
    default:
      return `${label} is not valid.`;
  }
}
