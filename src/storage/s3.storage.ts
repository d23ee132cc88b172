import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config/config.js';
import { StorageError, type Storage } from '../modules/uploads/uploads.js';
import { assertKey } from './keys.js';

type S3Settings = NonNullable<StorageConfig['s3']>;

/** An S3-compatible bucket (path-style addressing, so MinIO-like servers work too). */
export function s3Storage(settings: S3Settings): Storage {
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

  return {
    async put({ key, body, contentType }) {
      try {
        await client.send(
          new PutObjectCommand({ Bucket: settings.bucket, Key: assertKey(key), Body: body, ContentType: contentType }),
        );
      } catch (error) {
        if (error instanceof StorageError) throw error;
        throw fail('store the file', error);
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
