/**
 * What a template sees for a field its instance left out: the field's
 * `default` in the instance's pinned revision. The stored values are never
 * changed; the defaults are laid under them at render time only, so a page
 * made with a title alone renders the starter hero with its background.
 */
import type { FieldDefinition } from './field-vocabulary.js';

/**
 * Each field with something to fill in: its own default, and for an `object`
 * field, the defaults of its nested fields (filled into an object that is
 * there but leaves some of them out).
 */
export interface RenderDefaults {
  [name: string]: { value?: unknown; fields?: RenderDefaults };
}

const kept = new WeakMap<FieldDefinition[], RenderDefaults | null>();

/** The defaults of a revision's fields, made once per fields array (a revision's instances share theirs); undefined: none. */
export function renderDefaults(fields: FieldDefinition[]): RenderDefaults | undefined {
  let found = kept.get(fields);
  if (found === undefined) kept.set(fields, (found = build(fields) ?? null));
  return found ?? undefined;
}

function build(fields: FieldDefinition[] | undefined): RenderDefaults | undefined {
  if (!Array.isArray(fields)) return undefined;
  const out: RenderDefaults = {};
  let any = false;
  for (const field of fields) {
    if (field.type === 'binding') continue;
    const nested = field.type === 'object' ? build(field.fields) : undefined;
    if (field.default === undefined && nested === undefined) continue;
    const entry: { value?: unknown; fields?: RenderDefaults } = {};
    if (field.default !== undefined) entry.value = field.default;
    if (nested !== undefined) entry.fields = nested;
    Object.defineProperty(out, field.name, { value: entry, enumerable: true, writable: true, configurable: true });
    any = true;
  }
  return any ? out : undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const put = (scope: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(scope, name, { value, enumerable: true, writable: true, configurable: true });

/**
 * Fills `scope` (a fresh copy of an instance's values) where a field is left
 * out: with its default, or, for an object present without some of its
 * fields, a copy of it with theirs. A value present (null included) stays.
 */
export function fillDefaults(scope: Record<string, unknown>, defaults: RenderDefaults): void {
  for (const name in defaults) {
    if (!Object.hasOwn(defaults, name)) continue;
    const entry = defaults[name]!;
    if (!Object.hasOwn(scope, name) || scope[name] === undefined) {
      if (entry.value !== undefined) put(scope, name, entry.value);
      else if (entry.fields) {
        const built: Record<string, unknown> = {};
        fillDefaults(built, entry.fields);
        put(scope, name, built);
      }
    } else if (entry.fields && isPlainObject(scope[name])) {
      const copy = { ...scope[name] };
      fillDefaults(copy, entry.fields);
      put(scope, name, copy);
    }
  }
}
