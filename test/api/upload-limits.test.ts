/**
 * Uploads are read as they arrive, within limits checked while they stream:
 * a cover is refused as it passes 5 MB, a user's uploads stay within their
 * quota (413 with the figures, even for uploads sent side by side), a user
 * has at most UPLOADS_IN_FLIGHT uploads received at once (429), and nothing
 * of a refused or aborted upload stays, on local storage and in a bucket.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { documentedResponses } from '../support/documented-responses.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';
import { startS3, type FakeS3 } from '../support/s3.js';
import { socketSlack, streamUpload, type StreamedAnswer } from '../support/streamed-upload.js';

const MB = 1024 * 1024;
const QUOTA_MB = 8;
const IN_FLIGHT = 2;
/** What the socket buffers may hold past where the server stopped reading; bodies are twice as long. */
const SLACK = socketSlack();

const until = async (what: () => Promise<boolean>, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
};

/** Every file under `dir`, recursively (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

for (const storage of ['local', 's3'] as const) {
  describe(`upload limits (${storage} storage)`, () => {
    let t: TestApp;
    let s3: FakeS3 | undefined;
    let check: ReturnType<typeof documentedResponses>;

    beforeAll(async () => {
      s3 = storage === 's3' ? await startS3('upload-limits') : undefined;
      t = await startApp({
        env: {
          UPLOAD_QUOTA_MB: String(QUOTA_MB),
          UPLOADS_IN_FLIGHT: String(IN_FLIGHT),
          ...(s3 && {
            STORAGE: 's3',
            S3_ENDPOINT: s3.endpoint,
            S3_BUCKET: s3.bucket,
            S3_REGION: 'us-east-1',
            S3_ACCESS_KEY_ID: 'S3RVER',
            S3_SECRET_ACCESS_KEY: 'S3RVER',
          }),
        },
      });
      check = documentedResponses(t.url);
    });
    afterAll(async () => {
      await t.close();
      await s3?.stop();
    });

    /** What is stored anywhere: files under DATA_DIR but the database's, and the bucket's objects. */
    const stored = async (): Promise<string[]> => {
      const files = (await filesUnder(t.config.dataDir)).filter((file) => !/pageblocks\.sqlite/.test(file));
      if (!s3) return files;
      const client = new S3Client({
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      client.destroy();
      return [...files, ...(listed.Contents ?? []).map((object) => `s3:${object.Key}`)];
    };

    /** The answer, checked against the served OpenAPI document as every test client's is. */
    const answered = async (path: string, upload: { answer: Promise<StreamedAnswer> }) => {
      const answer = await upload.answer;
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers))
        if (typeof value === 'string') headers.set(name, value);
      await check('POST', path, {
        status: answer.status,
        headers,
        body: answer.body,
        text: JSON.stringify(answer.body),
      });
      return answer;
    };
    const siteUpload = (user: TestUser, siteId: number, size: number, pauseAt?: number) => {
      const path = `/api/v1/sites/${siteId}/s3/upload`;
      const upload = streamUpload(`${t.url}${path}`, { key: user.key, size, ...(pauseAt && { pauseAt }) });
      return { ...upload, checked: () => answered(path, upload) };
    };

    it('refuses a cover far past 5 MB as it passes 5 MB, long before its end, and keeps nothing of it', async () => {
      const user = await newUser(t);
      const block = await createBlock(t, user, { name: 'Big cover' });
      const before = await stored();
      const path = `/api/v1/blocks/${block.id}/cover`;
      const size = 5 * MB + 2 * SLACK;
      const answer = await answered(path, streamUpload(`${t.url}${path}`, { key: user.key, size }));
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([
        { path: 'file', message: 'The file is larger than 5 MB.', code: 'too_large' },
      ]);
      // Answered once 5 MB had been read: no more written than that and the socket buffers, not the whole.
      expect(answer.sentAtAnswer).toBeLessThan(5 * MB + SLACK);
      expect(await until(async () => (await stored()).length === before.length)).toBe(true);
      expect(await stored()).toEqual(before);
      expect((await t.call('GET', `/api/v1/blocks/${block.id}`, { key: user.key })).body.cover_url).toBeNull();
    });

    it('answers 413 at file with the quota and what is in use once a user’s uploads would pass it', async () => {
      const user = await newUser(t);
      const site = await newSite(t, user);
      expect((await siteUpload(user, site.id, 5 * MB).checked()).status).toBe(201);
      const before = await stored();
      const over = await siteUpload(user, site.id, 3 * MB + 2 * SLACK).checked();
      expect(over.status).toBe(413);
      expect(over.body.error).toBe(
        `This file would take your uploads past your quota of ${QUOTA_MB} MB: 5 MB in use, 3 MB left.`,
      );
      expect(over.body.errors).toEqual([
        { path: 'file', message: over.body.error, code: 'too_large', expected: QUOTA_MB * MB },
      ]);
      // Refused as it passed the 3 MB left: no more written than that and the socket buffers.
      expect(over.sentAtAnswer).toBeLessThan(3 * MB + SLACK);
      expect(await until(async () => (await stored()).length === before.length)).toBe(true);
      // What is left still fits; another user's quota is their own.
      expect((await siteUpload(user, site.id, 2 * MB).checked()).status).toBe(201);
      const other = await newUser(t);
      expect((await siteUpload(other, (await newSite(t, other)).id, 5 * MB).checked()).status).toBe(201);
    });

    it('lets a user at their quota replace a cover: the old one is not counted against the new, and goes', async () => {
      const user = await newUser(t);
      const site = await newSite(t, user);
      const block = await createBlock(t, user, { name: 'Replaced cover' });
      const path = `/api/v1/blocks/${block.id}/cover`;
      const cover = (size: number) => answered(path, streamUpload(`${t.url}${path}`, { key: user.key, size }));
      expect((await siteUpload(user, site.id, 5 * MB).checked()).status).toBe(201);
      const first = await cover(2 * MB);
      expect(first.status).toBe(200);
      // 5 + 2 in use, 1 left: a 2.5 MB cover fits only in place of the 2 MB one.
      const second = await cover(2.5 * MB);
      expect(second.status).toBe(200);
      const over = await siteUpload(user, site.id, MB).checked();
      expect(over.status).toBe(413);
      expect(over.body.error).toMatch(/: 7\.5 MB in use, 0\.5 MB left\.$/);
      const oldFile = first.body.url.replace('/uploads/', '');
      expect((await stored()).some((file) => file.endsWith(oldFile))).toBe(false);
    });

    it('lets only one of two uploads sent side by side take the last room of the quota', async () => {
      const user = await newUser(t);
      const site = await newSite(t, user);
      const before = await stored();
      // Each fits the room read as it starts; together they pass it.
      const answers = await Promise.all(
        [siteUpload(user, site.id, 5 * MB), siteUpload(user, site.id, 5 * MB)].map((u) => u.checked()),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 413]);
      expect(answers.find((a) => a.status === 413)!.body.errors[0].path).toBe('file');
      expect(await until(async () => (await stored()).length === before.length + 1)).toBe(true);
    });

    it(`answers 429 with Retry-After to a user's upload past ${IN_FLIGHT} in flight, before reading it; others upload meanwhile`, async () => {
      const user = await newUser(t);
      const site = await newSite(t, user);
      const held = [siteUpload(user, site.id, 3 * MB, MB), siteUpload(user, site.id, 3 * MB, MB)];
      await Promise.all(held.map((upload) => upload.reached(MB)));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const third = await siteUpload(user, site.id, 2 * SLACK).checked();
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('5');
      expect(third.body).toMatchObject({ error: expect.stringMatching(/2 uploads in progress/), retry_after: 5 });
      // Answered before its body was read: no more came than the socket buffers hold.
      expect(third.sentAtAnswer).toBeLessThan(SLACK);

      const other = await newUser(t);
      expect((await siteUpload(other, (await newSite(t, other)).id, MB).checked()).status).toBe(201);

      for (const upload of held) upload.resume();
      expect((await Promise.all(held.map((upload) => upload.checked()))).map((a) => a.status)).toEqual([201, 201]);
      expect((await siteUpload(user, site.id, 64 * 1024).checked()).status).toBe(201);
    });

    it('keeps nothing of uploads whose client went away, and counts them neither in flight nor in the quota', async () => {
      const user = await newUser(t);
      const site = await newSite(t, user);
      const before = await stored();
      const gone = [siteUpload(user, site.id, 7 * MB, 3 * MB), siteUpload(user, site.id, 7 * MB, 3 * MB)];
      await Promise.all(gone.map((upload) => upload.reached(3 * MB)));
      // Written partly on the server's side by now (a temp file, a spool file).
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const upload of gone) upload.abort();
      await Promise.all(gone.map((upload) => upload.answer.catch(() => undefined)));
      expect(await until(async () => (await stored()).length === before.length)).toBe(true);
      expect(await stored()).toEqual(before);
      // Two in flight and 7 MB of an 8 MB quota were they counted: both are free.
      expect((await siteUpload(user, site.id, 7 * MB).checked()).status).toBe(201);
    });
  });
}
