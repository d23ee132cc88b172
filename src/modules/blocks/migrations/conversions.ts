/**
 * A value turned into another kind (`convert`, and a derive's text into its
 * field's kind). What cannot be turned is said, never guessed: "twelve" is no
 * number, "maybe" no boolean. Pure.
 */
import type { ItemDefinition } from '../schema/field-vocabulary.js';
import { kindOf, type ValueKind } from './value-paths.js';

export type Converted = { ok: true; value: unknown } | { ok: false; message: string };

const isImage = (value: unknown): value is { src: string } =>
  typeof value === 'object' && value !== null && typeof (value as { src?: unknown }).src === 'string';

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', '']);

const describe = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

/** The kinds `convert` goes between; an object goes nowhere. */
export const CONVERTIBLE: ReadonlySet<ValueKind> = new Set(['string', 'number', 'boolean', 'list']);

function scalar(value: unknown, to: Exclude<ValueKind, 'list' | 'object'>, integer: boolean): Converted {
  if (to === 'string') {
    if (typeof value === 'string') return { ok: true, value };
    if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
    // An image stored with its alt text ({src, alt}): its address is its text.
    if (isImage(value)) return { ok: true, value: value.src };
    return { ok: false, message: `${describe(value)} cannot be made text.` };
  }
  if (to === 'number') {
    let n: number | undefined;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'boolean') n = value ? 1 : 0;
    else if (typeof value === 'string' && value.trim() !== '') n = Number(value.trim());
    if (n === undefined || !Number.isFinite(n)) return { ok: false, message: `${describe(value)} is not a number.` };
    if (integer && !Number.isInteger(n)) return { ok: false, message: `${describe(value)} is not a whole number.` };
    return { ok: true, value: n };
  }
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') return { ok: true, value: value !== 0 };
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return { ok: true, value: true };
    if (FALSE_WORDS.has(word)) return { ok: true, value: false };
  }
  return { ok: false, message: `${describe(value)} is not yes or no (true, false, yes, no, on, off, 1, 0).` };
}

/** `value` as a value of `def` (its kind; a list's items as its items' kind). */
export function convertTo(value: unknown, def: ItemDefinition, separator = ','): Converted {
  const to = kindOf(def);
  if (to === 'object') return { ok: false, message: 'Nothing is converted into an object.' };
  if (value === null || value === undefined) return { ok: true, value };
  if (to === 'list') {
    const itemDef = def.items ?? { type: 'string' };
    const items = Array.isArray(value)
      ? value
      : typeof value === 'string'
        ? value
            .split(separator)
            .map((s) => s.trim())
            .filter((s) => s !== '')
        : [value];
    const out: unknown[] = [];
    for (const item of items) {
      const one = convertTo(item, itemDef, separator);
      if (!one.ok) return one;
      out.push(one.value);
    }
    return { ok: true, value: out };
  }
  if (Array.isArray(value)) {
    if (to === 'string') {
      const parts: string[] = [];
      for (const item of value) {
        const one = scalar(item, 'string', false);
        if (!one.ok) return one;
        parts.push(one.value as string);
      }
      return { ok: true, value: parts.join(`${separator} `) };
    }
    if (value.length !== 1) return { ok: false, message: `A list of ${value.length} items cannot be made one ${to}.` };
    return scalar(value[0], to, def.type === 'integer');
  }
  if (typeof value === 'object')
    return { ok: false, message: `${describe(value)} is an object: it cannot be converted.` };
  return scalar(value, to, def.type === 'integer');
}
