import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import {
  CollectionBlocksBody,
  CollectionCreateBody,
  CollectionEnvelope,
  CollectionOrderBody,
  CollectionSchema,
} from '../schemas/collections.js';
import { errorResponses, IdParams, NoContent, Paged, PageQuery } from '../schemas/common.js';

export function collectionRoutes(app: App, { services }: HttpDeps) {
  const tags = ['collections'];
  const collections = services.collections;

  app.get(
    '/collections',
    {
      schema: {
        tags,
        summary: 'Global collections and your own',
        querystring: PageQuery,
        response: { 200: Paged(CollectionSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => collections.list(actorOf(request), request.query),
  );
  app.post(
    '/collections',
    {
      schema: {
        tags,
        summary: 'Create a personal collection',
        body: CollectionCreateBody,
        response: { 201: CollectionSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return collections.create(actorOf(request), request.body.name);
    },
  );
  app.get(
    '/collections/:id',
    {
      schema: {
        tags,
        summary: 'One collection',
        params: IdParams,
        response: { 200: CollectionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => collections.get(actorOf(request), request.params.id),
  );
  app.delete(
    '/collections/:id',
    {
      schema: {
        tags,
        summary: 'Delete a collection (its blocks stay)',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await collections.delete(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
  app.post(
    '/collections/:id/blocks',
    {
      schema: {
        tags,
        summary: 'Add blocks to a collection; duplicates are ignored',
        description:
          'A global collection takes global blocks only; a personal one your own or global blocks. An unavailable block is a 422 at block_ids[i].',
        params: IdParams,
        body: CollectionBlocksBody,
        response: { 200: CollectionEnvelope, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => ({
      collection: await collections.addBlocks(actorOf(request), request.params.id, request.body.block_ids),
    }),
  );
  app.put(
    '/collections/:id/blocks/order',
    {
      schema: {
        tags,
        summary: 'Reorder the blocks of a collection',
        params: IdParams,
        body: CollectionOrderBody,
        response: { 200: CollectionEnvelope, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      collection: await collections.reorder(actorOf(request), request.params.id, request.body.block_ids),
    }),
  );
}
