/** The service's own field vocabulary, so that the editor offers exactly what it accepts. */
import { FIELD_TYPES, MAX_FIELD_DEPTH } from '../../../../src/modules/blocks/schema/field-vocabulary';

export { FIELD_TYPES, MAX_FIELD_DEPTH };
export type FieldDefinition = Record<string, unknown> & { name?: unknown; type?: unknown };

export interface Choice {
  value: string;
  label: string;
}

/**
 * The types a field may take at `depth` (the top level is 1): bindings at the
 * top level only, and no object or array at the last level, since the service
 * refuses one level more at its path.
 */
export function typesAt(depth: number, named: boolean): string[] {
  return FIELD_TYPES.filter(
    (t) =>
      !(t === 'binding' && (depth > 1 || !named)) && !((t === 'object' || t === 'array') && depth >= MAX_FIELD_DEPTH),
  );
}

/** `field_n` with the first n from the list's length up that no field of the list has. */
export function freshName(fields: FieldDefinition[]): string {
  const taken = new Set(fields.map((f) => f.name));
  let n = fields.length + 1;
  while (taken.has(`field_${n}`)) n++;
  return `field_${n}`;
}

let nextKey = 0;
/** A React key for a row of the field editor, never given twice. */
export const newRowKey = () => `field-${++nextKey}`;
