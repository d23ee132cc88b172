import type { VersionBump } from '../blocks.js';
import { isObject } from '../../../shared/is-object.js';

/** The part of a revision whose change is a new version. */
export interface RevisionContent {
  template: string;
  css: string;
  js: string;
  schema_content: unknown[];
}

/** JSON with sorted keys: key order is not a change; array order is (fields are shown in order). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Paths of the fields present before and gone after (removed, or renamed: the
 * old name is gone), at any depth, in the order of `before`:
 * `title` (top level), `author.name` (a field of object `author`),
 * `items[].caption` (a field of each item of array `items`),
 * `grid[][].x` (items of items). Values at these paths would be lost.
 */
export function removedFields(before: readonly unknown[], after: readonly unknown[]): string[] {
  return removedFromList(before, after, '');
}

function removedFromList(before: readonly unknown[], after: readonly unknown[], prefix: string): string[] {
  const afterByName = new Map<string, Record<string, unknown>>();
  for (const field of after) if (isObject(field) && typeof field.name === 'string') afterByName.set(field.name, field);
  const removed: string[] = [];
  for (const field of before) {
    if (!isObject(field) || typeof field.name !== 'string') continue;
    const path = `${prefix}${field.name}`;
    const kept = afterByName.get(field.name);
    if (kept) removed.push(...removedInside(field, kept, path));
    else removed.push(path);
  }
  return removed;
}

/** What disappeared inside one definition kept under its name: object `fields`, array `items`. */
function removedInside(
  before: Record<string, unknown>,
  after: Record<string, unknown> | undefined,
  path: string,
): string[] {
  const removed: string[] = [];
  if (Array.isArray(before.fields)) {
    removed.push(...removedFromList(before.fields, Array.isArray(after?.fields) ? after.fields : [], `${path}.`));
  }
  if (isObject(before.items)) {
    removed.push(...removedInside(before.items, isObject(after?.items) ? after.items : undefined, `${path}[]`));
  }
  return removed;
}

/**
 * A field gone at any depth → major; any other change of template, css, js or
 * schema_content → minor (adding a field, a new label, another type under the
 * same name); nothing changed → none.
 */
export function computeVersionBump(before: RevisionContent, after: RevisionContent): VersionBump {
  if (removedFields(before.schema_content, after.schema_content).length > 0) return 'major';
  const keys = ['template', 'css', 'js', 'schema_content'] as const;
  return keys.some((k) => canonical(before[k]) !== canonical(after[k])) ? 'minor' : 'none';
}
