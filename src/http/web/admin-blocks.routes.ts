import type { App, HttpDeps } from '../context.js';
import { BlockUpdateResult } from '../schemas/upgrade-plan.js';
import { actorOf } from '../context.js';
import { presentBlock } from '../presenters/blocks.presenter.js';
import { BlockCreateBody, BlockSchema, BlockUpdateBody, DeprecationBody } from '../schemas/blocks.js';
import { errorResponses, IdParams, versionConflictResponse } from '../schemas/common.js';
import { expectedVersions, IfMatchHeaders, withETag } from '../if-match.js';

/** Global blocks: created, changed and deprecated by administrators only. */
export function adminBlockRoutes(app: App, { services }: HttpDeps) {
  const tags = ['admin'];
  app.post(
    '/admin/blocks',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Create a global block (same body as POST /api/v1/blocks)',
        body: BlockCreateBody,
        response: { 201: BlockSchema, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const block = await services.blocks.create(actorOf(request), request.body, 'global');
      withETag(reply.status(201), block.edit_version);
      return presentBlock(block);
    },
  );
  app.put(
    '/admin/blocks/:id',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Change a global block (same rules, If-Match and answer as PUT /api/v1/blocks/{id})',
        params: IdParams,
        headers: IfMatchHeaders,
        body: BlockUpdateBody,
        response: {
          200: BlockUpdateResult,
          ...errorResponses(400, 401, 403, 404, 409, 422),
          ...versionConflictResponse,
        },
      },
    },
    async (request, reply) => {
      const expected = expectedVersions(request);
      const actor = actorOf(request);
      const result = await services.blocks.update(actor, request.params.id, request.body, 'global', expected);
      withETag(reply, result.block.edit_version);
      return {
        block: presentBlock(result.block),
        version_bump: result.version_bump,
        removed_fields: result.removed_fields,
        upgrade_impact: await services.upgradeImpact.of(actor, result.block),
        migration_impact: await services.migrationImpact.of(actor, result.block.id, result.removed_fields),
      };
    },
  );
  app.put(
    '/admin/blocks/:id/deprecation',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Deprecate a global block: it leaves lists and search, its instances keep working',
        params: IdParams,
        body: DeprecationBody,
        response: { 200: BlockSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const block = await services.blocks.setDeprecated(
        actorOf(request),
        request.params.id,
        request.body.is_deprecated,
      );
      withETag(reply, block.edit_version);
      return presentBlock(block);
    },
  );
}
