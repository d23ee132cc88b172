import type { VersionBump } from '../blocks.js';
import type { FieldDefinition, ItemDefinition } from './field-definitions.js';

export interface RevisionContent {
  template: string;
  css: string;
  js: string;
  schema_content: unknown[];
}

/** JSON with sorted keys: key order is not a change. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Paths of the fields present before and gone after, at any depth:
 * `title`, `author.name` (a field of an object), `items[].caption` (a field of array items).
 */
export function removedFields(before: unknown[], after: unknown[], prefix = ''): string[] {
  const afterByName = new Map((after as FieldDefinition[]).filter((f) => f && typeof f.name === 'string').map((f) => [f.name, f]));
  const removed: string[] = [];
  for (const field of before as FieldDefinition[]) {
    if (!field || typeof field.name !== 'string') continue;
    const path = `${prefix}${field.name}`;
    const kept = afterByName.get(field.name);
    if (!kept) {
      removed.push(path);
      continue;
    }
    removed.push(...removedFields(field.fields ?? [], kept.fields ?? [], `${path}.`));
    removed.push(...removedFields(itemFields(field.items), itemFields(kept.items), `${path}[].`));
  }
  return removed;
}

const itemFields = (items: ItemDefinition | undefined): FieldDefinition[] => items?.fields ?? [];

/** api-v1.md "Version bump on block update": removed or renamed field → major; other change of the four → minor. */
export function computeVersionBump(before: RevisionContent, after: RevisionContent): VersionBump {
  if (removedFields(before.schema_content, after.schema_content).length > 0) return 'major';
  const keys = ['template', 'css', 'js', 'schema_content'] as const;
  return keys.some((k) => canonical(before[k]) !== canonical(after[k])) ? 'minor' : 'none';
}
