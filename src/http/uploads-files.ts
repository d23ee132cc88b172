import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { UploadsService } from '../modules/uploads/uploads.service.js';
import { isValidKey } from '../modules/uploads/uploads.js';
import type { App } from './context.js';

/**
 * `GET /uploads/<key>`. From local storage the file is streamed from disk by
 * @fastify/static, never read whole into memory, with `ETag` and
 * `Last-Modified` (a conditional GET answers 304) and byte ranges. A key is
 * random and never reused for other bytes, so the answer is cached for good.
 * From a bucket: a redirect to its public URL, or, without one, its bytes.
 */
export async function registerUploads(app: App, uploads: UploadsService): Promise<void> {
  const root = uploads.directory();
  if (root === undefined) {
    app.get<{ Params: { '*': string } }>('/uploads/*', { schema: { hide: true } }, async (request, reply) => {
      const key = request.params['*'];
      const found = await uploads.open(key);
      if (!found) return reply.status(404).send({ error: `No upload ${key}.` });
      if ('redirect' in found) return reply.redirect(found.redirect, 302);
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .type(found.contentType)
        .send(found.body);
    });
    return;
  }
  // A first start has stored nothing yet: the served directory exists from the start (@fastify/static warns otherwise).
  await mkdir(root, { recursive: true });
  // Its own scope: the web app's registration already decorates the reply with sendFile.
  await app.register(async (scope: App) => {
    await scope.register(fastifyStatic, {
      root,
      prefix: '/uploads/',
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      etag: true,
      lastModified: true,
      cacheControl: true,
      maxAge: '365d',
      immutable: true,
      // Only what a key can be: no half-written `.tmp` of a file being stored, nothing outside the folders.
      allowedPath: (path) => {
        const key = path.replace(/^\//, '');
        return isValidKey(key) && !key.endsWith('.tmp');
      },
      setHeaders: (reply) => {
        reply.header('x-content-type-options', 'nosniff');
      },
    });
  });
}
