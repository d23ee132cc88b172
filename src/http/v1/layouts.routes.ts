import { Type } from 'typebox';
import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { ForkBody } from '../schemas/blocks.js';
import { errorResponses, IdParams, NoContent, Paged, PageQuery } from '../schemas/common.js';
import { LayoutCreateBody, LayoutSchema, LayoutUpdateBody } from '../schemas/layouts.js';

export function layoutRoutes(app: App, { services }: HttpDeps) {
  const tags = ['layouts'];
  const layouts = services.layouts;
  app.get(
    '/layouts',
    {
      schema: {
        tags,
        summary: 'Global layouts and your own',
        querystring: PageQuery,
        response: { 200: Paged(LayoutSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => layouts.list(actorOf(request), request.query),
  );
  app.post(
    '/layouts',
    {
      schema: {
        tags,
        summary: 'Create a private layout',
        body: LayoutCreateBody,
        response: { 201: LayoutSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return layouts.create(actorOf(request), request.body);
    },
  );
  app.get(
    '/layouts/:id',
    {
      schema: {
        tags,
        summary: 'One layout',
        params: IdParams,
        response: { 200: LayoutSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => layouts.get(actorOf(request), request.params.id),
  );
  app.put(
    '/layouts/:id',
    {
      schema: {
        tags,
        summary: 'Change a layout',
        params: IdParams,
        body: LayoutUpdateBody,
        response: { 200: LayoutSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => layouts.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/layouts/:id',
    {
      schema: {
        tags,
        summary: 'Delete a layout; 409 while a site uses it',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await layouts.delete(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
  app.post(
    '/layouts/:id/fork',
    {
      schema: {
        tags,
        summary: 'Fork a global layout into a private copy',
        params: IdParams,
        body: Type.Optional(ForkBody),
        response: { 201: LayoutSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return layouts.fork(actorOf(request), request.params.id, request.body?.name);
    },
  );
}
