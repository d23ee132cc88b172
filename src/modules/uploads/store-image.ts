import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fieldError } from '../../shared/errors.js';
import { detectImageType } from '../../shared/image-type.js';
import type { Storage } from './uploads.js';

/** What the type is read from: enough for every format file-type knows (its own sample size). */
const SNIFF_BYTES = 4100;

/** A bound on the bytes of one upload, and the error that refuses it once the stream passes it. */
export interface ByteLimit {
  bytes: number;
  refuse: () => Error;
}

/**
 * Stores an image under `<prefix>/<random>.<ext>` as its bytes arrive: its
 * type is read from its first bytes, and it is refused the moment it passes
 * the smallest of `limits`, never read further. Nothing of a refused or
 * aborted file stays (the storage's promise); the file's own failure (a limit,
 * the client gone) is what rejects, before any storage error it caused.
 */
export async function storeImage(input: {
  storage: Storage;
  file: AsyncIterable<Buffer>;
  prefix: string;
  limits: ByteLimit[];
}): Promise<{ key: string; mime: string; bytes: number }> {
  const limits = [...input.limits].sort((a, b) => a.bytes - b.bytes);
  const source: AsyncIterator<Buffer> = input.file[Symbol.asyncIterator]();
  let bytes = 0;
  let failure: unknown;
  /** The next chunk, counted; undefined at the end. */
  const next = async (): Promise<Buffer | undefined> => {
    try {
      const read = await source.next();
      if (read.done) return undefined;
      const value = read.value;
      bytes += value.length;
      const passed = limits.find((limit) => bytes > limit.bytes);
      if (passed) throw passed.refuse();
      return value;
    } catch (error) {
      failure ??= error;
      throw error;
    }
  };
  try {
    const head: Buffer[] = [];
    for (let chunk, read = 0; read < SNIFF_BYTES && (chunk = await next()); read += chunk.length) head.push(chunk);
    const type = await detectImageType(Buffer.concat(head));
    if (!type) throw fieldError('file', 'The file is not a JPEG, PNG, GIF or WebP image.');
    const key = `${input.prefix}/${randomBytes(16).toString('hex')}.${type.ext}`;
    const body = Readable.from(
      (async function* () {
        yield* head;
        for (let chunk; (chunk = await next());) yield chunk;
      })(),
      { objectMode: false },
    );
    try {
      await input.storage.put({ key, body, contentType: type.mime });
    } catch (error) {
      throw failure ?? error;
    }
    return { key, mime: type.mime, bytes };
  } finally {
    // Refused or failed early: stop reading the rest (a finished stream ignores this).
    await source.return?.();
  }
}
