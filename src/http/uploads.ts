import type { FastifyRequest } from 'fastify';
import { fieldError } from '../shared/errors.js';

/** The bytes of one multipart file field; other parts are drained. */
export async function readFileField(request: FastifyRequest, field = 'file'): Promise<Buffer> {
  if (!request.isMultipart()) throw fieldError(field, `Send multipart/form-data with a "${field}" field.`);
  let found: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === field && !found) found = bytes;
    }
  }
  if (!found) throw fieldError(field, `The "${field}" field is missing.`);
  return found;
}
