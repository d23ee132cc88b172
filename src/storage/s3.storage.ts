import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import type { StorageConfig } from '../config/config.js';
import { StorageError, type Storage } from '../modules/uploads/uploads.js';
import { assertKey } from './keys.js';

type S3Settings = NonNullable<StorageConfig['s3']>;

/**
 * An S3-compatible bucket (path-style addressing, so MinIO-like servers work too).
 * A streamed upload is first written to a file under `spoolDir`, then sent
 * from it with its length: memory holds a few chunks, never the file, and the
 * bucket only ever gets whole objects (one PUT), never a part of a refused or
 * aborted upload.
 */
export function s3Storage(settings: S3Settings, spoolDir = tmpdir()): Storage {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: true,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
  const fail = (what: string, error: unknown) => {
    const code = (error as { name?: string; $metadata?: { httpStatusCode?: number } }).name ?? 'error';
    // The SDK's own message can echo request details; ours names the operation and the code only.
    return new StorageError(`Object storage failed to ${what} (${code}).`, { cause: error });
  };
  const publicBase =
    settings.publicUrl ??
    (settings.endpoint ? `${settings.endpoint.replace(/\/+$/, '')}/${settings.bucket}` : undefined);

  const send = async (key: string, body: Buffer | Readable, length: number, contentType: string, crc?: string) => {
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: key,
          Body: body,
          ContentLength: length,
          ContentType: contentType,
          // Given, the checksum goes as a header: without it the SDK would send the stream
          // aws-chunked with a trailer, which S3-compatible servers do not all read.
          ...(crc && { ChecksumCRC32: crc }),
        }),
      );
    } catch (error) {
      throw fail('store the file', error);
    }
  };
  /** Writes the stream to `spool`; answers its CRC32 as S3 spells it (base64 of 4 bytes, big-endian). */
  const spoolTo = async (body: Readable, spool: string) => {
    try {
      await mkdir(spoolDir, { recursive: true });
      let crc = 0;
      body.on('data', (chunk: Buffer) => {
        crc = crc32(chunk, crc);
      });
      await pipeline(body, createWriteStream(spool, { flags: 'wx' }));
      const bytes = Buffer.alloc(4);
      bytes.writeUInt32BE(crc >>> 0);
      return bytes.toString('base64');
    } catch (error) {
      body.destroy();
      throw new StorageError(`Could not receive the file: ${(error as NodeJS.ErrnoException).code ?? 'I/O error'}.`, {
        cause: error,
      });
    }
  };

  return {
    async put({ key, body, contentType }) {
      assertKey(key);
      if (Buffer.isBuffer(body)) return send(key, body, body.length, contentType);
      const spool = join(spoolDir, `upload-${randomBytes(8).toString('hex')}.tmp`);
      try {
        const checksum = await spoolTo(body, spool);
        const { size } = await stat(spool);
        await send(key, createReadStream(spool), size, contentType, checksum);
      } finally {
        await rm(spool, { force: true }).catch(() => undefined);
      }
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: assertKey(key) }));
        const body = Buffer.from(await object.Body!.transformToByteArray());
        return { body, contentType: object.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        if (error instanceof StorageError) throw error;
        throw fail('read the file', error);
      }
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: assertKey(key) }));
      } catch (error) {
        if (error instanceof StorageError) throw error;
        throw fail('delete the file', error);
      }
    },
    publicUrl: (key) => (publicBase ? `${publicBase}/${key}` : undefined),
    directory: () => undefined,
    status: () => ({ driver: 's3', configured: true, bucket: settings.bucket, public_url: publicBase ?? null }),
  };
}
