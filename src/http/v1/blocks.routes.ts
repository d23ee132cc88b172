import { clientGone } from '../preview-reply.js';
import { BlockUpdateResult, UpgradePlanQuery, UpgradePlanSchema } from '../schemas/upgrade-plan.js';
import { Type } from 'typebox';
import type { App, HttpDeps } from '../context.js';
import { actorOf, maybeDry } from '../context.js';
import { presentBlock, presentBlocks } from '../presenters/blocks.presenter.js';
import {
  BlockCreateBody,
  BlockListQuery,
  BlockSchema,
  BlockUpdateBody,
  ForkBody,
  PlaceholderSchemaQuery,
  PlaceholderSchemaResponse,
  RevisionEntrySchema,
  SearchQuery,
  UsagesPage,
  UsagesQuery,
} from '../schemas/blocks.js';
import {
  DryRunQuery,
  errorResponses,
  IdParams,
  NoContent,
  Paged,
  PageQuery,
  versionConflictResponse,
} from '../schemas/common.js';
import { expectedVersions, IfMatchHeaders, withETag } from '../if-match.js';

const tags = ['blocks'];

export function blockRoutes(app: App, deps: HttpDeps) {
  const { services } = deps;
  const blocks = services.blocks;
  const upgradeImpact = services.upgradeImpact;

  app.get(
    '/blocks',
    {
      schema: {
        tags,
        summary: 'Blocks visible to you: your own and the global ones (deprecated ones hidden)',
        querystring: BlockListQuery,
        response: { 200: Paged(BlockSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { tags: tagList, role, ...query } = request.query;
      const page = await blocks.list(actorOf(request), {
        ...query,
        tagIds: tagList ? tagList.split(',').map(Number) : undefined,
        kind: role,
      });
      return presentBlocks(page);
    },
  );

  app.post(
    '/blocks',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Create a private block; a template or schema_content makes revision 1.0',
        body: BlockCreateBody,
        response: { 201: BlockSchema, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const block = await blocks.create(actorOf(request), request.body);
      withETag(reply.status(201), block.edit_version);
      return presentBlock(block);
    },
  );

  app.get(
    '/blocks/favorites',
    {
      schema: {
        tags,
        summary: 'Your favorite blocks',
        querystring: PageQuery,
        response: { 200: Paged(BlockSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => presentBlocks(await blocks.favorites(actorOf(request), request.query)),
  );

  app.get(
    '/blocks/:id',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'A block with its current revision',
        params: IdParams,
        response: { 200: BlockSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const block = await blocks.get(actorOf(request), request.params.id);
      withETag(reply, block.edit_version);
      return presentBlock(block);
    },
  );

  app.put(
    '/blocks/:id',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Change a private block; template, CSS, JS or schema changes make a new revision',
        description:
          'version_bump: major when a schema field is removed or renamed at any depth, minor for other changes of ' +
          'template, css, js or schema_content, none for metadata only. removed_fields names what a major change takes ' +
          'away. With `If-Match` (the block’s ETag, its `edit_version`), a block changed since is a 412 ' +
          '`version_conflict` and nothing is written.',
        params: IdParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        body: BlockUpdateBody,
        response: {
          200: BlockUpdateResult,
          ...errorResponses(400, 401, 403, 404, 409, 422),
          ...versionConflictResponse,
        },
      },
    },
    async (request, reply) =>
      maybeDry(request, deps, async () => {
        const expected = expectedVersions(request);
        const actor = actorOf(request);
        const result = await blocks.update(actor, request.params.id, request.body, 'user', expected);
        withETag(reply, result.block.edit_version);
        return {
          block: presentBlock(result.block),
          version_bump: result.version_bump,
          removed_fields: result.removed_fields,
          upgrade_impact: await upgradeImpact.of(actor, result.block),
          migration_impact: await services.migrationImpact.of(actor, result.block.id, result.removed_fields),
        };
      }),
  );

  app.delete(
    '/blocks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a block with all its revisions',
        description:
          '409 while instances of the block stand on pages. With `If-Match`, a block changed since is a 412 ' +
          '`version_conflict` and stays.',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 409), ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      await blocks.delete(actorOf(request), request.params.id, expectedVersions(request));
      reply.status(204);
    },
  );

  app.post(
    '/blocks/:id/fork',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Fork a global block into a private copy',
        params: IdParams,
        body: Type.Optional(ForkBody),
        response: { 201: BlockSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const block = await blocks.fork(actorOf(request), request.params.id, request.body?.name);
      withETag(reply.status(201), block.edit_version);
      return presentBlock(block);
    },
  );

  for (const [method, on] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/blocks/:id/favorite',
      schema: {
        tags,
        summary: on ? 'Mark a block as favorite (idempotent)' : 'Unmark a favorite block (idempotent)',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        await blocks.setFavorite(actorOf(request), request.params.id, on);
        reply.status(204);
      },
    });
  }

  app.get(
    '/blocks/:id/usages',
    {
      schema: {
        tags,
        summary: 'Your instances of a block on pages',
        params: IdParams,
        querystring: UsagesQuery,
        response: { 200: UsagesPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { outdated, ...page } = request.query;
      return blocks.usages(actorOf(request), request.params.id, { ...page, outdatedOnly: outdated === 1 });
    },
  );

  app.get(
    '/blocks/:id/upgrade-plan',
    {
      schema: {
        tags,
        summary: 'What upgrading your instances of a block would do, instance by instance, with a summary',
        description:
          'Every instance of yours behind the block’s current version (or `to`, major.minor) is planned: the summary ' +
          'counts them all (minor, through a migration, blocked and why); `data` gives a page of entries (`limit`, ' +
          '`offset`, in page order), each with its page and position, from and to, the bump, fields added with the ' +
          'value they take, values lost, values and bindings that would not validate (paths and codes), and its HTML ' +
          'before and after with stub data. Nothing is written. A version the block never had is a 422 at `to`.',
        params: IdParams,
        querystring: UpgradePlanQuery,
        response: { 200: UpgradePlanSchema, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const { to, ...page } = request.query;
      const [major, minor] = to ? to.split('.').map(Number) : [];
      return services.upgradePlan.plan(
        actorOf(request),
        request.params.id,
        { ...page, to: to ? { major: major!, minor: minor! } : undefined },
        clientGone(reply),
      );
    },
  );

  app.get(
    '/blocks/:id/revisions',
    {
      schema: {
        tags,
        summary: 'The revision history of a block, newest first: version, bump, changelog and date',
        description: 'Visible as the block itself is: your own blocks and global ones.',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: Paged(RevisionEntrySchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => blocks.revisions(actorOf(request), request.params.id, request.query),
  );

  app.get(
    '/blocks/:id/placeholder-schema',
    {
      schema: {
        tags,
        summary: 'The contract for placeholder_values: JSON Schema, a valid example and the binding slots',
        description:
          'With expand=sources, each binding slot also carries `sources`: every allowed source with its params_schema and ' +
          'its result type (schema_json, stub), so one call replaces the discovery chain. With version=major.minor, the ' +
          'contract of that revision: the one a page block of that `version` is validated against until it is upgraded; ' +
          'a version the block never had is a 404 at `version`.',
        params: IdParams,
        querystring: PlaceholderSchemaQuery,
        response: { 200: PlaceholderSchemaResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { expand, version } = request.query;
      const [major, minor] = version ? version.split('.').map(Number) : [];
      const at = version ? { major: major!, minor: minor! } : undefined;
      return expand === 'sources'
        ? services.placeholderSchemas.forBlockWithSources(actorOf(request), request.params.id, at)
        : services.placeholderSchemas.forBlock(actorOf(request), request.params.id, at);
    },
  );

  app.get(
    '/search/blocks',
    {
      schema: {
        tags,
        summary: 'Full-text search over name, description, docs and tags, best match first',
        querystring: SearchQuery,
        response: { 200: Paged(BlockSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => presentBlocks(await blocks.search(actorOf(request), request.query)),
  );
}
