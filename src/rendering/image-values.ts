/**
 * An image field's value as a template sees it, whichever shape is stored:
 * `{{ photo }}` is its address (what every template wrote before alt text
 * existed), `{{ photo.src }}` the same, `{{ photo.alt }}` its alt text (empty
 * for a value stored as an address alone). Both are escaped on output as any
 * value is: a Drop is unwrapped to its `valueOf()` before escaping, and a
 * property read from it is a plain string.
 */
import { Drop } from 'liquidjs';
import type { ImageSpot, ImageSpots } from '../modules/blocks/schema/image-spots.js';

export class ImageValue extends Drop {
  readonly src: string;
  readonly alt: string;
  constructor(src: string, alt: string) {
    super();
    this.src = src;
    this.alt = alt;
  }
  override valueOf(): string {
    return this.src;
  }
  override toString(): string {
    return this.src;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const put = (scope: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(scope, name, { value, enumerable: true, writable: true, configurable: true });

/** The value at one spot, its images made ImageValues: copies where something changed, the stored values untouched. */
function imagesAt(value: unknown, spot: ImageSpot): unknown {
  if (spot === true) {
    if (typeof value === 'string') return new ImageValue(value, '');
    if (isRecord(value) && typeof value.src === 'string')
      return new ImageValue(value.src, typeof value.alt === 'string' ? value.alt : '');
    return value;
  }
  if ('items' in spot) return Array.isArray(value) ? value.map((item) => imagesAt(item, spot.items)) : value;
  if (!isRecord(value)) return value;
  const copy = { ...value };
  wrapImages(copy, spot.fields);
  return copy;
}

/** Puts each image of `scope` (a fresh copy of an instance's values) as an ImageValue. */
export function wrapImages(scope: Record<string, unknown>, spots: ImageSpots): void {
  for (const name in spots) {
    if (!Object.hasOwn(spots, name) || !Object.hasOwn(scope, name)) continue;
    put(scope, name, imagesAt(scope[name], spots[name]!));
  }
}
