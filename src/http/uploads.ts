import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { SITE_UPLOAD_MAX_BYTES } from '../modules/uploads/uploads.service.js';
import { fieldError } from '../shared/errors.js';

/** Multipart limits: one file, a byte over the largest upload (the service refuses it by its own rule first). */
export const MULTIPART_LIMITS = { fileSize: SITE_UPLOAD_MAX_BYTES + 1, files: 1 };

/**
 * Hands the file field's bytes to `use` as they arrive, never read whole:
 * parts before it are skipped, whatever follows it is left unread (the answer
 * does not wait for it; `discardRest` empties the socket after).
 */
export async function withFileField<T>(
  request: FastifyRequest,
  use: (file: AsyncIterable<Buffer>) => Promise<T>,
  field = 'file',
): Promise<T> {
  if (!request.isMultipart()) throw fieldError(field, `Send multipart/form-data with a "${field}" field.`);
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    if (part.fieldname === field) return use(part.file);
    part.file.resume();
  }
  throw fieldError(field, `The "${field}" field is missing.`);
}

/**
 * After an answer given before the body ended (a refusal as a limit passed,
 * a 429 before reading), reads the rest of the body to nowhere, so that the
 * client, still sending, gets to read the answer; held in no buffer, and at
 * most `limit` bytes more, then the connection is dropped.
 */
export function discardRest(raw: IncomingMessage, limit = SITE_UPLOAD_MAX_BYTES): void {
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  let left = limit;
  raw.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) raw.destroy();
  });
  raw.resume();
}
