import type { FastifyRequest } from 'fastify';
import { validationError } from '../shared/errors.js';

const NUL = '\u0000';

/** The path of the first string (value or key) holding a NUL character, in the notation of errors[].path. */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'root' : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulPath(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes(NUL)) return at;
      const found = nulPath(item, at);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * PostgreSQL stores no NUL character, in text or in JSON, and SQLite cuts
 * strings at it: refused once, here, for every route, with the field's path,
 * rather than left to fail as a 500 in whichever query meets it first.
 */
export async function refuseNul(request: FastifyRequest) {
  for (const part of [request.params, request.query, request.body]) {
    const path = nulPath(part, '');
    if (path) {
      throw validationError('The request is not valid: see errors[].', [
        { path, message: 'This value should not contain a NUL character (\\u0000).', code: 'not_allowed' },
      ]);
    }
  }
}
