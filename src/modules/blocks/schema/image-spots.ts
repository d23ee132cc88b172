/**
 * Where a revision's `image` fields are, at every level, so that the renderer
 * can hand each image value to its template in one shape whichever shape was
 * stored (a URL alone, or `{src, alt}`). Decided by the revision's fields, as
 * its defaults are: made once per fields array and kept with its template.
 */
import type { FieldDefinition, ItemDefinition } from './field-vocabulary.js';

/** `true`: an image here; `fields`: images inside an object; `items`: inside each item of a list. */
export type ImageSpot = true | { fields: ImageSpots } | { items: ImageSpot };
export interface ImageSpots {
  [name: string]: ImageSpot;
}

const kept = new WeakMap<FieldDefinition[], ImageSpots | null>();

/** The image fields of a revision; undefined when it has none. */
export function imageSpots(fields: FieldDefinition[]): ImageSpots | undefined {
  let found = kept.get(fields);
  if (found === undefined) kept.set(fields, (found = spotsOf(fields) ?? null));
  return found ?? undefined;
}

function spotsOf(fields: FieldDefinition[] | undefined): ImageSpots | undefined {
  if (!Array.isArray(fields)) return undefined;
  const out: ImageSpots = {};
  let any = false;
  for (const field of fields) {
    const spot = spotOf(field);
    if (spot === undefined) continue;
    Object.defineProperty(out, field.name, { value: spot, enumerable: true, writable: true, configurable: true });
    any = true;
  }
  return any ? out : undefined;
}

function spotOf(def: ItemDefinition | undefined): ImageSpot | undefined {
  if (def === undefined) return undefined;
  if (def.type === 'image') return true;
  if (def.type === 'object') {
    const fields = spotsOf(def.fields);
    return fields && { fields };
  }
  if (def.type === 'array') {
    const items = spotOf(def.items);
    return items && { items };
  }
  return undefined;
}
