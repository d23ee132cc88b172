/**
 * The JSON text a value was parsed from, kept beside it (by the object's
 * identity) by whoever read it that way: the database's stored values of an
 * instance. Rendering builds its cache keys from the text instead of
 * serializing the object again, and sends a render thread the text (copied in
 * one piece) rather than the object. A value replaced by another object (a
 * draft's values) has no text, and is serialized as before. Never mutate a
 * value parsed here: its text would no longer say what it holds.
 */
const texts = new WeakMap<object, string>();

/** `JSON.parse(text)`, its text kept when it is an object or an array. */
export function parseKeepingText<T>(text: string): T {
  const value: unknown = JSON.parse(text);
  if (typeof value === 'object' && value !== null) texts.set(value, text);
  return value as T;
}

/** The text `value` was parsed from by `parseKeepingText`, or undefined. */
export const jsonTextOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null ? texts.get(value) : undefined;
