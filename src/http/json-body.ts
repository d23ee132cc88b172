import type { FastifyInstance } from 'fastify';
import { validationError } from '../shared/errors.js';

/**
 * How deeply a JSON body may nest arrays and objects. Everything downstream
 * (validation, field checks, rendering) walks values recursively, and a body
 * 1,500 levels deep overflowed the stack there. The deepest legitimate body, a
 * page whose values follow fields nested to their limit, is far from this.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]

/**
 * Where `text` first nests deeper than `limit` (`blocks[0].placeholder_values.a.a`),
 * or null: one pass over the characters, before parsing builds anything.
 * Malformed JSON is left to the parser, which says what is wrong with it.
 */
export function tooDeepAt(text: string, limit: number): string | null {
  // One entry per open container: is it an array, and where in it we are (index or key).
  const arrays: boolean[] = [];
  const places: (number | string)[] = [];
  let inString = false;
  let stringStart = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        inString = false;
        if (expectKey) places[places.length - 1] = text.slice(stringStart, i);
      }
    } else if (c === QUOTE) {
      inString = true;
      stringStart = i + 1;
    } else if (OPEN.has(c)) {
      if (arrays.length >= limit) return pathOf(arrays, places);
      arrays.push(c === 0x5b);
      places.push(c === 0x5b ? 0 : '');
      expectKey = c !== 0x5b;
    } else if (CLOSE.has(c)) {
      arrays.pop();
      places.pop();
      expectKey = false;
    } else if (c === COMMA) {
      const last = places.length - 1;
      const place = places[last];
      // An array's place is its index (a number), an object's the key last read.
      if (typeof place === 'number') places[last] = place + 1;
      else expectKey = true;
    } else if (c === COLON) expectKey = false;
  }
  return null;
}

function pathOf(arrays: boolean[], places: (number | string)[]): string {
  let path = '';
  arrays.forEach((array, level) => {
    const place = places[level];
    path += array ? `[${place}]` : `${path ? '.' : ''}${String(place)}`;
  });
  return path || 'root';
}

/** Fastify's own JSON parser (which refuses `__proto__` and `constructor` keys), behind the depth check. */
export function limitJsonDepth(app: FastifyInstance, limit = MAX_JSON_DEPTH) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (request, body, done) => {
    const at = tooDeepAt(body, limit);
    if (at === null) return parse(request, body, done);
    done(
      validationError(`The request body nests deeper than ${limit} levels of arrays and objects.`, [
        { path: at, message: `Nested deeper than ${limit} levels.` },
      ]),
      undefined,
    );
  });
}
