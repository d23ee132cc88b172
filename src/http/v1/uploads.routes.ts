import { Type } from 'typebox';
import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { presentBlock, uploadPath } from '../presenters/blocks.presenter.js';
import { CoverResult } from '../schemas/blocks.js';
import { errorResponses, IdParams, NoContent, Nullable, Timestamp, withExample } from '../schemas/common.js';
import { withFileField } from '../uploads.js';
import { withETag } from '../if-match.js';

const SiteUploadList = withExample(
  Type.Object({
    data: Type.Array(
      Type.Object({
        name: Type.String({ description: 'the file’s name in the site’s folder' }),
        url: Type.String({ description: 'its public URL: the value an image field takes' }),
        bytes: Type.Integer(),
        created_at: Timestamp,
      }),
    ),
  }),
  {
    data: [
      {
        name: '5f0c2e9a.png',
        url: 'https://cdn.example.com/pages/sites/1/5f0c2e9a.png',
        bytes: 48213,
        created_at: '2026-05-04T10:00:00.000Z',
      },
    ],
  },
);

/** What both upload operations say of the limits checked as the file streams. */
const UPLOAD_LIMITS =
  'The file is read as it arrives and refused the moment it passes a limit: 400 at `file` past a cover’s 5 MB, ' +
  '413 at `file` when it would take your uploads past your storage quota (the message gives the quota, what is in use ' +
  'and what is left), 429 with `Retry-After` when you already have the most uploads in progress at once.';

export function uploadRoutes(app: App, { services }: HttpDeps) {
  app.post(
    '/blocks/:id/cover',
    {
      config: { multipartFile: 'file', etag: true },
      schema: {
        tags: ['blocks'],
        summary: 'Set a block’s cover: JPEG, PNG, GIF or WebP (by its bytes), at most 5 MB, 16:9 recommended',
        description: UPLOAD_LIMITS,
        params: IdParams,
        response: { 200: CoverResult, ...errorResponses(400, 401, 403, 404, 413, 429, 502) },
      },
    },
    async (request, reply) => {
      const { block, key } = await withFileField(request, (file) =>
        services.uploads.setCover(actorOf(request), request.params.id, file),
      );
      withETag(reply, block.edit_version);
      return { block: presentBlock(block), url: uploadPath(key) };
    },
  );

  app.get(
    '/sites/:id/s3/status',
    {
      schema: {
        tags: ['sites'],
        summary: 'Where the site’s uploads are stored',
        params: IdParams,
        response: {
          200: withExample(
            Type.Object({
              configured: Type.Boolean(),
              bucket: Nullable(Type.String()),
              public_url: Nullable(Type.String()),
            }),
            { configured: true, bucket: 'pages', public_url: 'https://cdn.example.com/pages' },
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => services.uploads.siteStatus(actorOf(request), request.params.id),
  );

  app.get(
    '/sites/:id/uploads',
    {
      schema: {
        tags: ['sites'],
        summary: 'The site’s uploads, newest first (its media library)',
        description:
          'Each upload of the site: its `name` (in the site’s folder), its public `url` (what an `image` field takes), ' +
          'its size in `bytes`, and when it was uploaded. At most 1000.',
        params: IdParams,
        response: { 200: SiteUploadList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ data: await services.uploads.siteUploads(actorOf(request), request.params.id) }),
  );

  app.delete(
    '/sites/:id/uploads/:name',
    {
      schema: {
        tags: ['sites'],
        summary: 'Delete one of the site’s uploads: the file goes and no longer counts against your quota',
        description:
          'A page that still shows the image shows it missing. 404 when the site has no upload by that name.',
        params: Type.Object({ ...IdParams.properties, name: Type.String({ maxLength: 255 }) }),
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 502) },
      },
    },
    async (request, reply) => {
      await services.uploads.removeSiteUpload(actorOf(request), request.params.id, request.params.name);
      reply.status(204);
    },
  );

  app.post(
    '/sites/:id/s3/upload',
    {
      config: { multipartFile: 'file' },
      schema: {
        tags: ['sites'],
        summary: 'Upload an image for the site’s pages; answers its public URL',
        description: `At most 100 MB (413 at \`file\`). ${UPLOAD_LIMITS} A failure of the storage answers 502.`,
        params: IdParams,
        response: {
          201: withExample(Type.Object({ url: Type.String() }), {
            url: 'https://cdn.example.com/pages/sites/1/photo.png',
          }),
          ...errorResponses(400, 401, 403, 404, 413, 429, 502),
        },
      },
    },
    async (request, reply) => {
      const answer = await withFileField(request, (file) =>
        services.uploads.siteUpload(actorOf(request), request.params.id, file),
      );
      reply.status(201);
      return answer;
    },
  );
}
