import { unprocessable, type FieldError } from '../../shared/errors.js';
import type { Binding, PageFields } from './pages.js';

/**
 * A page's JSON size: the bytes (UTF-8) of the page as a whole-set write
 * sends it, `{name, slug, meta_*, blocks: [{block_id, placeholder_values,
 * bindings, parent_page_block_id}, ...]}`, compact as JSON.stringify writes
 * it. Counting each instance's head too bounds the number of instances as well
 * as their values: the answer of `GET /pages/{id}?with_blocks=1` grows with both.
 */
export const DEFAULT_PAGE_JSON_LIMIT = 1024 * 1024;

/** One instance of the page as it will stand after a write, as its JSON size counts it. */
export interface SizedInstance {
  block_id: number;
  placeholder_values: Record<string, unknown>;
  /** The values' JSON when the write made it already (`NewInstance.values_text`): counted as it is. */
  values_text?: string | undefined;
  bindings: Record<string, Binding> | null;
  parent_page_block_id: number | null;
  /**
   * Where the request names it (`blocks[2]`, '' for a body that is one
   * instance); undefined for an instance the write leaves as it was.
   */
  at?: string | undefined;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

/** The page's fields that its JSON counts: what a client writes, not what the service adds. */
const META_KEYS = ['name', 'slug', 'meta_title', 'meta_description', 'meta_keywords', 'meta_robots'] as const;

type Part = { size: number; path: string };

/** An instance's parts, in the order its JSON has them: its head, each value, its bindings. */
function instanceParts(instance: SizedInstance, at: string): Part[] {
  // Its head with a one-byte stand-in for the values and for the bindings.
  const head = bytes(
    JSON.stringify({
      block_id: instance.block_id,
      placeholder_values: 0,
      bindings: 0,
      parent_page_block_id: instance.parent_page_block_id,
    }),
  );
  // The values' braces replace their stand-in: one byte more. Each entry is `"key":value`, after a comma but the first.
  const parts: Part[] = [{ size: head + 1, path: join(at, 'block_id') }];
  Object.entries(instance.placeholder_values).forEach(([key, value], i) => {
    const size = bytes(JSON.stringify(key)) + 1 + bytes(JSON.stringify(value) ?? 'null') + (i > 0 ? 1 : 0);
    parts.push({ size, path: join(at, `placeholder_values.${key}`) });
  });
  parts.push({ size: bytes(JSON.stringify(instance.bindings)) - 1, path: join(at, 'bindings') });
  return parts;
}

const sum = (parts: Part[]) => parts.reduce((n, part) => n + part.size, 0);

/**
 * `sum(instanceParts(instance))` from the values' JSON made already: its head
 * with stand-ins (less the two bytes of `0`), the values' text, the bindings'.
 * The values' braces and commas are the entries' separators the parts count.
 */
const instanceBytesOfText = (instance: SizedInstance, valuesText: string) =>
  bytes(
    JSON.stringify({
      block_id: instance.block_id,
      placeholder_values: 0,
      bindings: 0,
      parent_page_block_id: instance.parent_page_block_id,
    }),
  ) -
  2 +
  bytes(valuesText) +
  bytes(JSON.stringify(instance.bindings));

/** The bytes of one instance's JSON (what JSON.stringify of it would take). */
export const instanceBytes = (instance: SizedInstance) => sum(instanceParts(instance, ''));

/**
 * The bytes of the page's JSON: its fields, then the instances. Equal to
 * `JSON.stringify({...fields, blocks: instances})`'s, in UTF-8.
 */
export function pageBytes(fields: Pick<PageFields, MetaKey>, instances: SizedInstance[]): number {
  return headBytes(fields) + instances.reduce((n, instance, i) => n + instanceBytes(instance) + (i > 0 ? 1 : 0), 0);
}

type MetaKey = (typeof META_KEYS)[number];

/** `{...fields,"blocks":[]}`. */
function headBytes(fields: Pick<PageFields, MetaKey>): number {
  const head: Record<string, unknown> = {};
  for (const key of META_KEYS) head[key] = fields[key];
  return bytes(JSON.stringify({ ...head, blocks: [] }));
}

/**
 * Refuses a write after which the page's JSON would be over `limit` bytes: a
 * 422 at the place where the sum goes over, counting the page's fields and the
 * instances the write leaves as they were first, then those it writes in the
 * request's order, value by value: the place named is always one the request
 * sent (its first when the rest of the page is over already).
 */
export function checkPageJson(fields: Pick<PageFields, MetaKey>, instances: SizedInstance[], limit: number): void {
  const kept = instances.filter((i) => i.at === undefined);
  const written = instances.filter((i) => i.at !== undefined);
  let running = headBytes(fields) + kept.reduce((n, instance) => n + instanceBytes(instance), 0);
  // A comma before every instance but the first.
  running += Math.max(0, kept.length - 1);
  // Where every written instance's values are serialised already, their sum alone says whether the page fits.
  if (written.every((i) => i.values_text !== undefined)) {
    const quick = written.reduce(
      (n, instance, i) => n + instanceBytesOfText(instance, instance.values_text!) + (kept.length + i > 0 ? 1 : 0),
      running,
    );
    if (quick <= limit) return;
  }
  const parts = written.flatMap((instance, i) => {
    const own = instanceParts(instance, instance.at!);
    if (kept.length + i > 0) own[0]!.size += 1;
    return own;
  });
  const total = running + sum(parts);
  if (total <= limit) return;
  const over = running > limit ? parts[0] : parts.find((part) => (running += part.size) > limit);
  const path = over?.path ?? 'name';
  const message =
    `The page's JSON would be ${total} bytes, over its limit of ${limit} bytes ` +
    `(its fields, and each instance's block, values and bindings): ${path} takes it over.`;
  const error: FieldError = { path, message, code: 'too_large', expected: { limit_bytes: limit, bytes: total } };
  throw unprocessable(message, [error]);
}
