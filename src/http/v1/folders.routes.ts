import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { errorResponses, IdParams, NoContent, Paged } from '../schemas/common.js';
import { FolderCreateBody, FolderListQuery, FolderSchema, FolderUpdateBody } from '../schemas/folders.js';

export function folderRoutes(app: App, { services }: HttpDeps) {
  const tags = ['folders'];
  const folders = services.folders;
  app.get(
    '/folders',
    {
      schema: {
        tags,
        summary: 'Your folders, optionally of one site',
        querystring: FolderListQuery,
        response: { 200: Paged(FolderSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { site_id, ...page } = request.query;
      return folders.list(actorOf(request), { ...page, ...(site_id !== undefined && { siteId: site_id }) });
    },
  );
  app.post(
    '/folders',
    {
      schema: {
        tags,
        summary: 'Create a folder in a site',
        body: FolderCreateBody,
        response: { 201: FolderSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return folders.create(actorOf(request), request.body);
    },
  );
  app.get(
    '/folders/:id',
    {
      schema: {
        tags,
        summary: 'One folder',
        params: IdParams,
        response: { 200: FolderSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => folders.get(actorOf(request), request.params.id),
  );
  app.put(
    '/folders/:id',
    {
      schema: {
        tags,
        summary: 'Rename or move a folder (a cycle is a 422)',
        params: IdParams,
        body: FolderUpdateBody,
        response: { 200: FolderSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => folders.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/folders/:id',
    {
      schema: {
        tags,
        summary: 'Delete a folder and its subfolders; pages stay, at the root',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await folders.delete(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
}
