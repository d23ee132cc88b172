/**
 * An upper bound on a page's HTML, from its templates' shapes and its values,
 * without rendering: a write whose page surely fits its bound needs no render
 * to say so (rendering every page at write cost B2 a quarter of its CPU).
 * Conservative by construction: a template with anything whose output cannot
 * be bounded from its text and values (assign, capture, cycle, a range, a
 * filter that repeats or appends, Markdown) has no shape, and its page is
 * rendered. Never says "fits" for a page that does not.
 */
import type { PageBlockInput } from '../modules/publishing/publishing.js';
import { StoredJson } from '../shared/stored-json.js';
import { CrossRequestCache } from '../shared/cross-request-cache.js';
import { wrapperLength } from './scope-css.js';
import { fillDefaults } from '../modules/blocks/schema/render-defaults.js';

type Node =
  | { kind: 'text'; length: number }
  | { kind: 'output'; length: number; children: boolean }
  /** `root`: the value or slot looped over; null for anything else (an enclosing loop's item). */
  | { kind: 'loop'; root: string | null; body: Node[] };

/** Tags that only choose among their branches (counted all), or end a loop early. */
const CHOOSING = new Set(['if', 'elsif', 'else', 'endif', 'unless', 'endunless', 'case', 'when', 'endcase']);
// Not comment or raw: a tag quoted inside them would be read as one (an `endfor` would end a loop early).
const SKIPPED = new Set(['break', 'continue']);
/** Filters whose output is at most a few times their input's characters, or a number. */
const BOUNDED_FILTERS = new Set([
  'escape',
  'escape_once',
  'strip',
  'lstrip',
  'rstrip',
  'strip_html',
  'strip_newlines',
  'upcase',
  'downcase',
  'capitalize',
  'truncate',
  'truncatewords',
  'default',
  'size',
  'first',
  'last',
  'url_encode',
  'json',
  'round',
  'plus',
  'minus',
  'times',
  'divided_by',
  'modulo',
  'abs',
  'ceil',
  'floor',
]);
/**
 * Characters of output per byte of a value's JSON, at most: HTML escaping makes
 * `"` (2 bytes in JSON) `&quot;`, `&` `&amp;`, and `url_encode` a 3-byte
 * character 9; richtext is sanitized HTML, about its own length.
 */
const EXPANSION = 8;
const TOKEN = /\{\{-?([\s\S]*?)-?\}\}|\{%-?\s*(\w+)([\s\S]*?)-?%\}/g;
const LOOP = /^\s*(\w+)\s+in\s+([A-Za-z_][\w]*)(\.[\w.]+)?(\s+reversed)?(\s+(limit|offset):\s*\d+)*\s*$/;

/** A template's shape, or undefined when its output cannot be bounded without rendering it. */
export function shapeOf(template: string): Node[] | undefined {
  const stack: Node[][] = [[]];
  /** The item names of the loops around the place being read. */
  const items: string[] = [];
  let at = 0;
  for (const match of template.matchAll(TOKEN)) {
    const top = stack.at(-1)!;
    if (match.index > at) top.push({ kind: 'text', length: match.index - at });
    at = match.index + match[0].length;
    if (match[1] !== undefined) {
      const [, ...filters] = match[1].split('|');
      const names = filters.map((f) => f.trim().split(/[\s:]/)[0]!);
      if (!names.every((name) => BOUNDED_FILTERS.has(name))) return undefined;
      top.push({ kind: 'output', length: match[0].length, children: /\bchildren\b/.test(match[1]) });
      continue;
    }
    const tag = match[2]!;
    if (CHOOSING.has(tag) || SKIPPED.has(tag)) continue;
    if (tag === 'for') {
      const loop = LOOP.exec(match[3]!);
      if (!loop) return undefined;
      const body: Node[] = [];
      top.push({ kind: 'loop', root: items.includes(loop[2]!) ? null : loop[2]!, body });
      stack.push(body);
      items.push(loop[1]!);
    } else if (tag === 'endfor' && stack.length > 1) {
      stack.pop();
      items.pop();
    } else return undefined;
  }
  if (stack.length !== 1) return undefined;
  if (template.length > at) stack[0]!.push({ kind: 'text', length: template.length - at });
  return stack[0];
}

const bytes = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value) ?? ''));

/** How many times a loop over `root` can run: its items when it is a value or a slot, else at most `any`. */
function iterations(root: string | null, values: Record<string, unknown>, slots: Record<string, unknown>, any: number) {
  if (root === null) return any;
  const value = Object.hasOwn(values, root) ? values[root] : Object.hasOwn(slots, root) ? slots[root] : undefined;
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  if (value === undefined) return any;
  return 1;
}

/** The most characters these nodes can make, each output at most `each` (and `children` besides). */
function boundOf(
  nodes: Node[],
  scope: {
    values: Record<string, unknown>;
    slots: Record<string, unknown>;
    /** The most characters one output makes (besides `children`). */
    each: number;
    /** The most items any collection has: the bytes of the values and slots, each item at least one. */
    count: number;
    children: number;
  },
): number {
  let sum = 0;
  for (const node of nodes) {
    if (node.kind === 'text') sum += node.length;
    else if (node.kind === 'output') sum += node.length + scope.each + (node.children ? scope.children : 0);
    else sum += iterations(node.root, scope.values, scope.slots, scope.count) * boundOf(node.body, scope);
  }
  return sum;
}

export class SizeBound {
  /** Shapes by revision id (revisions never change); `false`: none. */
  readonly #shapes = new CrossRequestCache<number, Node[] | false>({ budget: 2000 });

  /** Whether the page's HTML is surely at most `limit` characters, without rendering it. */
  fits(blocks: PageBlockInput[], limit: number): boolean {
    const childrenOf = new Map<number, PageBlockInput[]>();
    const ids = new Set(blocks.map((b) => b.id));
    for (const block of blocks)
      if (block.parentId !== null && block.parentId !== block.id && ids.has(block.parentId)) {
        const siblings = childrenOf.get(block.parentId) ?? [];
        siblings.push(block);
        childrenOf.set(block.parentId, siblings);
      }
    const seen = new Set<number>();
    const bound = (block: PageBlockInput): number => {
      // A cycle of parents (which the layout shows once each) is not worth bounding: render.
      if (seen.has(block.id)) return Number.POSITIVE_INFINITY;
      seen.add(block.id);
      let shape = this.#shapes.get(block.revisionId);
      if (shape === undefined) this.#shapes.set(block.revisionId, (shape = shapeOf(block.template) ?? false));
      const stored = block.values instanceof StoredJson ? block.values.value : block.values;
      // What the template sees: the values, and the defaults of the fields they leave out.
      let values = stored;
      if (block.defaults !== undefined) fillDefaults((values = { ...stored }), block.defaults);
      const markdown =
        block.blockType === 'markdown' || (block.markdownFields ?? ['_markdown']).some((f) => f in values);
      if (shape === false || markdown) return Number.POSITIVE_INFINITY;
      const children = (childrenOf.get(block.id) ?? []).reduce((n, child) => n + bound(child) + 1, 0);
      const json =
        (block.values instanceof StoredJson ? Buffer.byteLength(block.values.text) : bytes(stored)) +
        bytes(block.defaults);
      const count = json + bytes(block.slots);
      // The element each instance is laid out in (`wrapInstance`) counts too.
      const own = boundOf(shape, { values, slots: block.slots, each: EXPANSION * count, count, children });
      return own + wrapperLength(block.revisionId);
    };
    let total = 0;
    for (const block of blocks) {
      if (!seen.has(block.id) && (block.parentId === null || !ids.has(block.parentId) || block.parentId === block.id))
        total += bound(block) + 1;
      if (total > limit) return false;
    }
    // Every block reached from a root: none in a cycle left out.
    return seen.size === blocks.length && total <= limit;
  }
}
