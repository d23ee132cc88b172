/**
 * What the upgrade plan says, in words for people: the service's codes and
 * paths (`too_long` at `placeholder_values.title`) become sentences by the
 * field's label ("Title holds longer text than version 1.1 allows").
 */
import type { Version } from './types';
import { versionText } from './types';

export interface FieldInfo {
  name: string;
  label?: string;
  type?: string;
  max_length?: number;
  default?: unknown;
}

/** The fields of a revision by name (top level), from its `schema_content`. */
export function fieldsByName(schema: unknown[] | undefined): Map<string, FieldInfo> {
  const out = new Map<string, FieldInfo>();
  for (const f of schema ?? []) {
    const field = f as FieldInfo;
    if (field && typeof field.name === 'string') out.set(field.name, field);
  }
  return out;
}

/** A field's label where the block gives one, else its name; a nested path keeps its dots (`Author › name`). */
export function labelOf(path: string, fields: Map<string, FieldInfo>): string {
  const bare = path.replace(/^placeholder_values\./, '');
  const [head, ...rest] = bare.split('.');
  const top = (head ?? '').replace(/\[\d*\]$/, '');
  const label = fields.get(top)?.label || top;
  return [label, ...rest].join(' › ');
}

const PHRASES: Record<string, (to: string) => string> = {
  required: (to) => `has no value, and version ${to} requires one`,
  blank: (to) => `is empty, and version ${to} requires text`,
  too_long: (to) => `holds longer text than version ${to} allows`,
  too_short: (to) => `holds shorter text than version ${to} allows`,
  too_large: (to) => `holds a number above what version ${to} allows`,
  too_small: (to) => `holds a number below what version ${to} allows`,
  too_many: (to) => `holds more items than version ${to} allows`,
  too_few: (to) => `holds fewer items than version ${to} needs`,
  pattern: (to) => `does not match the form version ${to} asks for`,
  format: (to) => `does not match the form version ${to} asks for`,
  enum: (to) => `holds a choice version ${to} no longer offers`,
  type: (to) => `holds another kind of value than version ${to} takes`,
};

export function reasonText(
  reason: { field: string; code: string; instances: number },
  to: Version,
  fields: Map<string, FieldInfo>,
): string {
  const phrase = PHRASES[reason.code]?.(versionText(to)) ?? `holds a value version ${versionText(to)} refuses`;
  return `${labelOf(reason.field, fields)} ${phrase}: ${count(reason.instances, 'instance')}.`;
}

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A value as a reader sees it: text in quotes, cut when long; lists and objects shortly. */
export function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'nothing';
  if (typeof value === 'string') return `“${value.length > 80 ? `${value.slice(0, 79)}…` : value}”`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return count(value.length, 'item');
  return 'a group of values';
}

/** Why an instance is blocked, in words. */
export const BLOCKERS: Record<string, string> = {
  major: 'a major change no migration covers (replace the block on its page)',
  values: 'values the new version refuses',
  bindings: 'live data the new version no longer accepts',
  migration: 'carried by a value migration, not included',
};
