/**
 * Paths into an instance's values (`author.name`, `items[].caption`,
 * `slides[0].image`): parsed, looked up in a revision's fields, and read and
 * written in values. Pure.
 */
import type { FieldDefinition, ItemDefinition } from '../schema/field-vocabulary.js';

export type PathToken = { kind: 'key'; name: string } | { kind: 'each' } | { kind: 'index'; n: number };

const SEGMENT = /^([a-z_][a-z0-9_]*)((?:\[\d*\])*)$/;
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** The tokens of a path, or undefined when it is not one (it must end with a field name). */
export function parsePath(path: unknown): PathToken[] | undefined {
  if (typeof path !== 'string' || path.length === 0 || path.length > 1000) return undefined;
  const tokens: PathToken[] = [];
  for (const segment of path.split('.')) {
    const match = SEGMENT.exec(segment);
    if (!match || PROTOTYPE_NAMES.has(match[1]!)) return undefined;
    tokens.push({ kind: 'key', name: match[1]! });
    for (const index of match[2]!.match(/\[\d*\]/g) ?? []) {
      const digits = index.slice(1, -1);
      if (digits.length > 6) return undefined;
      tokens.push(digits === '' ? { kind: 'each' } : { kind: 'index', n: Number(digits) });
    }
  }
  return tokens.at(-1)!.kind === 'key' ? tokens : undefined;
}

export const eachCount = (tokens: PathToken[]) => tokens.filter((t) => t.kind === 'each').length;

/** `items[3].caption` and `items[].caption` → `items[].caption`: the field a path names, as removedFields names it. */
export const fieldPath = (path: string) => path.replace(/\[\d*\]/g, '[]');

/** The definition a path names in `fields`, or why there is none. */
export function definitionAt(
  fields: readonly FieldDefinition[],
  tokens: PathToken[],
): { def: ItemDefinition } | { missing: string } {
  let level: readonly FieldDefinition[] | undefined = fields;
  let def: ItemDefinition | undefined;
  let walked = '';
  for (const token of tokens) {
    if (token.kind === 'key') {
      if (!level) return { missing: `${walked} is not an object: it has no field "${token.name}".` };
      def = level.find((f) => f.name === token.name);
      walked += walked ? `.${token.name}` : token.name;
      if (!def) return { missing: `There is no field ${walked}.` };
      if (def.type === 'binding') return { missing: `${walked} is a binding: bindings are not values.` };
    } else {
      if (def?.type !== 'array' || !def.items) return { missing: `${walked} is not a list: it has no items.` };
      walked += token.kind === 'each' ? '[]' : `[${token.n}]`;
      def = def.items;
    }
    level = def.type === 'object' ? (def.fields ?? []) : undefined;
  }
  return { def: def! };
}

/** What a value of a definition is, for moves and conversions. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'list' | 'object';

export function kindOf(def: ItemDefinition): ValueKind {
  switch (def.type) {
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'list';
    case 'object':
      return 'object';
    default:
      return 'string';
  }
}

/** Whether two paths may name the same value: one is the other or inside it (`[]` meets any item). */
export function overlaps(a: PathToken[], b: PathToken[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x.kind === 'key' || y.kind === 'key') {
      if (x.kind !== y.kind || (x as { name: string }).name !== (y as { name: string }).name) return false;
    } else if (x.kind === 'index' && y.kind === 'index' && x.n !== y.n) return false;
  }
  return true;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value found at a path: its concrete path (`items[2].caption`) and the indices its `[]` took, in order. */
export interface Found {
  path: string;
  indices: number[];
  value: unknown;
}

/** Every value present at a path (`[]` goes through every item there is). */
export function readAll(values: Record<string, unknown>, tokens: PathToken[]): Found[] {
  const out: Found[] = [];
  const walk = (at: unknown, i: number, path: string, indices: number[]) => {
    if (i === tokens.length) {
      if (at !== undefined) out.push({ path, indices, value: at });
      return;
    }
    const token = tokens[i]!;
    if (token.kind === 'key') {
      if (isRecord(at) && Object.hasOwn(at, token.name))
        walk(at[token.name], i + 1, path ? `${path}.${token.name}` : token.name, indices);
    } else if (Array.isArray(at)) {
      if (token.kind === 'index') {
        if (token.n < at.length) walk(at[token.n], i + 1, `${path}[${token.n}]`, indices);
      } else at.forEach((item, n) => walk(item, i + 1, `${path}[${n}]`, [...indices, n]));
    }
  };
  walk(values, 0, '', []);
  return out;
}

/** Where a value goes: the object holding it, its name there, its concrete path, and the list item it is in (if any). */
export interface Target {
  holder: Record<string, unknown>;
  name: string;
  path: string;
  item: unknown;
}

/**
 * The places a value goes at a path. Objects missing on the way are made, and
 * lists for `[N]` (with items up to N); `[]` goes through the items there are
 * (none when the list is not there), or those `indices` name (a move's pairs).
 */
export function targets(values: Record<string, unknown>, tokens: PathToken[], indices?: number[]): Target[] {
  const out: Target[] = [];
  const last = tokens.length - 1;
  const walk = (container: unknown, i: number, path: string, used: number, item: unknown): void => {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    if (token.kind === 'key') {
      if (!isRecord(container)) return;
      const here = path ? `${path}.${token.name}` : token.name;
      if (i === last) {
        out.push({ holder: container, name: token.name, path: here, item });
        return;
      }
      let child = Object.hasOwn(container, token.name) ? container[token.name] : undefined;
      if (child === undefined || child === null) {
        if (next!.kind === 'each') return;
        put(container, token.name, (child = next!.kind === 'key' ? {} : []));
      }
      walk(child, i + 1, here, used, item);
      return;
    }
    if (!Array.isArray(container)) return;
    const pick = token.kind === 'index' ? token.n : indices?.[used];
    const picks = pick !== undefined ? [pick] : indices ? [] : container.map((_, n) => n);
    for (const n of picks) {
      // Items are added up to N: a pair keeps its place (item 2 goes to item 2).
      while (container.length <= n) container.push(next!.kind === 'key' ? {} : []);
      if (container[n] === null || container[n] === undefined) container[n] = next!.kind === 'key' ? {} : [];
      walk(container[n], i + 1, `${path}[${n}]`, token.kind === 'each' ? used + 1 : used, container[n]);
    }
  };
  walk(values, 0, '', 0, undefined);
  return out;
}

/** Defined, never assigned: a name such as `__proto__` stays a plain key. */
export const put = (holder: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(holder, name, { value, enumerable: true, writable: true, configurable: true });

/** Removes the value at one concrete path found by `readAll`. */
export function removeAt(values: Record<string, unknown>, tokens: PathToken[], indices: number[]): void {
  let at: unknown = values;
  let used = 0;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    if (token.kind === 'key') at = isRecord(at) ? at[token.name] : undefined;
    else if (Array.isArray(at)) at = at[token.kind === 'index' ? token.n : indices[used++]!];
    else return;
  }
  const leaf = tokens.at(-1) as { name: string };
  if (isRecord(at)) delete at[leaf.name];
}
