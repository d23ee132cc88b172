import { randomBytes } from 'node:crypto';
import { fieldError } from '../../shared/errors.js';
import { detectImageType } from '../../shared/image-type.js';
import type { Storage } from './uploads.js';

/** Stores an image under `<prefix>/<random>.<ext>` after checking its size and, by its bytes, its type. */
export async function storeImage(input: {
  storage: Storage;
  bytes: Buffer;
  prefix: string;
  maxBytes: number;
}): Promise<{ key: string; mime: string }> {
  if (input.bytes.length > input.maxBytes) {
    throw fieldError('file', `The file is larger than ${Math.round(input.maxBytes / 1024 / 1024)} MB.`);
  }
  const type = await detectImageType(input.bytes);
  if (!type) throw fieldError('file', 'The file is not a JPEG, PNG, GIF or WebP image.');
  const key = `${input.prefix}/${randomBytes(16).toString('hex')}.${type.ext}`;
  await input.storage.put({ key, body: input.bytes, contentType: type.mime });
  return { key, mime: type.mime };
}
