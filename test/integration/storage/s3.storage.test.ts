import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Storage } from '../../../src/storage/s3.storage.js';
import { StorageError } from '../../../src/modules/uploads/uploads.js';
import { startApp } from '../../support/app.js';
import { newSite, newUser } from '../../support/factories.js';
import { form, GIF, PNG } from '../../support/images.js';
import { createBlock } from '../../support/library.js';
import { startS3, type FakeS3 } from '../../support/s3.js';

let s3: FakeS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3.stop());

const settings = () => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  publicUrl: undefined,
});

describe('the S3 adapter against a real S3-compatible server', () => {
  it('puts, gets back the same bytes and type, and deletes', async () => {
    const storage = s3Storage(settings());
    await storage.put({ key: 'covers/a.png', body: PNG, contentType: 'image/png' });
    expect(await storage.get('covers/a.png')).toEqual({ body: PNG, contentType: 'image/png' });
    expect(storage.publicUrl('covers/a.png')).toBe(`${s3.endpoint}/${s3.bucket}/covers/a.png`);
    await storage.delete('covers/a.png');
    expect(await storage.get('covers/a.png')).toBeUndefined();
  });

  it('fails with a StorageError that carries no secret, for a missing bucket', async () => {
    const storage = s3Storage({ ...settings(), bucket: 'no-such-bucket', secretAccessKey: 'SUPER-SECRET' });
    const error = await storage.put({ key: 'x.png', body: PNG, contentType: 'image/png' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(String((error as Error).message)).not.toContain('SUPER-SECRET');
  });

  it('refuses keys that leave their folder', async () => {
    const storage = s3Storage(settings());
    await expect(storage.put({ key: '../x.png', body: PNG, contentType: 'image/png' })).rejects.toBeInstanceOf(
      StorageError,
    );
  });
});

describe('the service with STORAGE=s3', () => {
  it('stores covers and site uploads in the bucket, redirects /uploads/ paths there, and answers 502 when the storage is down', async () => {
    const own = await startS3('service-bucket');
    const t = await startApp({
      env: {
        STORAGE: 's3',
        S3_ENDPOINT: own.endpoint,
        S3_BUCKET: own.bucket,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
    });
    try {
      const user = await newUser(t);
      const block = await createBlock(t, user, { name: 'Covered' });
      const first = await t.call('POST', `/api/v1/blocks/${block.id}/cover`, {
        key: user.key,
        rawBody: form('file', PNG, 'a.png'),
      });
      expect(first.status).toBe(200);
      expect(first.body.url).toMatch(/^\/uploads\/covers\/[0-9a-f]+\.png$/);
      const redirect = await fetch(`${t.url}${first.body.url}`, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const object = await fetch(redirect.headers.get('location')!);
      expect(Buffer.from(await object.arrayBuffer())).toEqual(PNG);

      const second = await t.call('POST', `/api/v1/blocks/${block.id}/cover`, {
        key: user.key,
        rawBody: form('file', GIF, 'b.gif'),
      });
      const oldKey = first.body.url.replace('/uploads/', '');
      expect(
        await s3Storage({ ...settings(), bucket: own.bucket, endpoint: own.endpoint }).get(oldKey),
      ).toBeUndefined();
      expect(second.status).toBe(200);

      const site = await newSite(t, user);
      expect((await t.call('GET', `/api/v1/sites/${site.id}/s3/status`, { key: user.key })).body).toEqual({
        configured: true,
        bucket: own.bucket,
        public_url: `${own.endpoint}/${own.bucket}`,
      });
      const upload = await t.call('POST', `/api/v1/sites/${site.id}/s3/upload`, {
        key: user.key,
        rawBody: form('file', PNG, 'x.png'),
      });
      expect(upload.status).toBe(201);
      expect(upload.body.url).toMatch(new RegExp(`^${own.endpoint}/${own.bucket}/sites/${site.id}/[0-9a-f]+\\.png$`));

      await own.stop();
      const down = await t.call('POST', `/api/v1/sites/${site.id}/s3/upload`, {
        key: user.key,
        rawBody: form('file', PNG, 'x.png'),
      });
      expect(down.status).toBe(502);
      expect(down.body.error).toMatch(/storage failed/i);
      expect(down.text).not.toContain('S3RVER');
    } finally {
      await t.close();
      await own.stop();
    }
  });
});
