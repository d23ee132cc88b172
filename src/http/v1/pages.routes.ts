import type { App, HttpDeps } from '../context.js';
import { actorOf, maybeDry } from '../context.js';
import { presentPage } from '../presenters/pages.presenter.js';
import { pageBody } from '../presenters/page-body.js';
import { sendSerialized } from '../serialized.js';
import { DryRunQuery, errorResponses, IdParams, NoContent, Paged, versionConflictResponse } from '../schemas/common.js';
import { expectedVersions, IF_MATCH_NOTE, IfMatchHeaders, pageAnswer } from '../if-match.js';
import { SearchQuery } from '../schemas/blocks.js';
import {
  PAGE_BOUNDS_NOTE,
  PageCreateBody,
  PageGetQuery,
  PageListQuery,
  PageSchema,
  PageUpdateBody,
} from '../schemas/pages.js';

export function pageRoutes(app: App, deps: HttpDeps) {
  const { services } = deps;
  const tags = ['pages'];
  const pages = services.pages;

  app.get(
    '/pages',
    {
      schema: {
        tags,
        summary: 'Your pages',
        querystring: PageListQuery,
        response: { 200: Paged(PageSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { has_outdated, has_unpublished_changes, ...page } = request.query;
      const result = await pages.list(actorOf(request), {
        ...page,
        hasOutdated: has_outdated === 1,
        hasUnpublishedChanges: has_unpublished_changes === 1,
      });
      return { ...result, data: result.data.map((p) => presentPage({ ...p, blocks: null })) };
    },
  );

  app.post(
    '/pages',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Create a page of a site from block instances',
        description:
          'On 400, fix exactly the fields named by errors[].path and retry. An unavailable block is a 404 `blocks[i]: ' +
          'block N not found`; a taken slug a 409 at `slug`. ' +
          PAGE_BOUNDS_NOTE,
        querystring: DryRunQuery,
        body: PageCreateBody,
        response: { 201: PageSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () =>
        pageAnswer(reply, await pages.create(actorOf(request), request.body)),
      );
      return sendSerialized(reply.status(201), body);
    },
  );

  app.get(
    '/pages/:id',
    {
      config: { readsPage: true, etag: true },
      schema: {
        tags,
        summary: 'A page; blocks is null unless with_blocks=1',
        params: IdParams,
        querystring: PageGetQuery,
        response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const page = { id: request.params.id, withBlocks: request.query.with_blocks === 1, ownerId: actor.userId };
      return deps.pageReads.send(request, reply, page, async () => {
        const view = await pages.view(actor, page.id, page.withBlocks);
        return { body: pageBody(view), version: view.version };
      });
    },
  );

  app.put(
    '/pages/:id',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Change a page: with blocks, the whole set is replaced; without, metadata only',
        description: `${PAGE_BOUNDS_NOTE} ${IF_MATCH_NOTE}`,
        params: IdParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        body: PageUpdateBody,
        response: {
          200: PageSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422),
          ...versionConflictResponse,
        },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () =>
        pageAnswer(
          reply,
          await pages.update(actorOf(request), request.params.id, request.body, expectedVersions(request)),
        ),
      );
      return sendSerialized(reply, body);
    },
  );

  app.delete(
    '/pages/:id',
    {
      schema: {
        tags,
        summary: 'Delete a page',
        description: IF_MATCH_NOTE,
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404), ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      await pages.delete(actorOf(request), request.params.id, expectedVersions(request));
      reply.status(204);
    },
  );

  app.get(
    '/search/pages',
    {
      schema: {
        tags,
        summary: 'Search your pages by name, slug and meta fields',
        querystring: SearchQuery,
        response: { 200: Paged(PageSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const result = await pages.search(actorOf(request), request.query);
      return { ...result, data: result.data.map((p) => presentPage({ ...p, blocks: null })) };
    },
  );
}
