import type { FastifyReply, FastifyRequest } from 'fastify';
import { validationError } from '../shared/errors.js';

const NUL = '\u0000';
/** Half of a surrogate pair alone: with the `u` flag a whole pair is one character, never matched. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const unstorable = (text: string) => text.includes(NUL) || LONE_SURROGATE.test(text);

/** The path of the first string (value or key) that cannot be stored, in the notation of errors[].path. */
function unstorablePath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return unstorable(value) ? path || 'root' : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorablePath(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (unstorable(key)) return at;
      const found = unstorablePath(item, at);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * PostgreSQL stores no NUL character, in text or in JSON, and SQLite cuts
 * strings at it; PostgreSQL's jsonb also refuses a lone surrogate (`"\ud800"`,
 * which JSON allows but is no Unicode text). Both are refused once, here, for
 * every route, with the field's path, rather than left to fail as a 500 in
 * whichever query meets them first.
 */
export function refuseUnstorableText(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
  // A callback hook, not an async one: no promise on every request.
  for (const part of [request.params, request.query, request.body]) {
    const path = unstorablePath(part, '');
    if (path) {
      return done(
        validationError('The request is not valid: see errors[].', [
          {
            path,
            message:
              'This value should contain neither a NUL character (\\u0000) nor half of a surrogate pair alone (\\ud800 to \\udfff).',
            code: 'not_allowed',
          },
        ]),
      );
    }
  }
  done();
}
