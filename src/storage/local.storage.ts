import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageError, type Storage } from '../modules/uploads/uploads.js';
import { assertKey } from './keys.js';

const TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };

/** Files under `<dataDir>/uploads`, served by the service at `/uploads/…`. */
export function localStorage(dataDir: string): Storage {
  const root = join(dataDir, 'uploads');
  const path = (key: string) => join(root, assertKey(key));
  return {
    async put({ key, body }) {
      const target = path(key);
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      // Written beside its place, then renamed: a reader never sees half a file,
      // and a failed or aborted upload leaves nothing once its temp file is removed.
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await mkdir(dirname(target), { recursive: true });
        await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
        await rename(temp, target);
      } catch (error) {
        source.destroy();
        await rm(temp, { force: true }).catch(() => undefined);
        throw new StorageError(`Could not store the file: ${(error as NodeJS.ErrnoException).code ?? 'I/O error'}.`, {
          cause: error,
        });
      }
    },
    async get(key) {
      try {
        const body = await readFile(path(key));
        return { body, contentType: TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream' };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new StorageError('Could not read the file.', { cause: error });
      }
    },
    async delete(key) {
      await rm(path(key), { force: true });
    },
    publicUrl: () => undefined,
    directory: () => root,
    status: () => ({ driver: 'local', configured: true, bucket: null, public_url: null }),
  };
}
