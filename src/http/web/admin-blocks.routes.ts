import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { presentBlock } from '../presenters/blocks.presenter.js';
import {
  BlockCreateBody,
  BlockSchema,
  BlockUpdateBody,
  BlockUpdateResult,
  DeprecationBody,
} from '../schemas/blocks.js';
import { errorResponses, IdParams } from '../schemas/common.js';

/** Global blocks: created, changed and deprecated by administrators only. */
export function adminBlockRoutes(app: App, { services }: HttpDeps) {
  const tags = ['admin'];
  app.post(
    '/admin/blocks',
    {
      schema: {
        tags,
        summary: 'Create a global block (same body as POST /api/v1/blocks)',
        body: BlockCreateBody,
        response: { 201: BlockSchema, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return presentBlock(await services.blocks.create(actorOf(request), request.body, 'global'));
    },
  );
  app.put(
    '/admin/blocks/:id',
    {
      schema: {
        tags,
        summary: 'Change a global block (same rules and answer as PUT /api/v1/blocks/{id})',
        params: IdParams,
        body: BlockUpdateBody,
        response: { 200: BlockUpdateResult, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const result = await services.blocks.update(actorOf(request), request.params.id, request.body, 'global');
      return {
        block: presentBlock(result.block),
        version_bump: result.version_bump,
        removed_fields: result.removed_fields,
      };
    },
  );
  app.put(
    '/admin/blocks/:id/deprecation',
    {
      schema: {
        tags,
        summary: 'Deprecate a global block: it leaves lists and search, its instances keep working',
        params: IdParams,
        body: DeprecationBody,
        response: { 200: BlockSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentBlock(
        await services.blocks.setDeprecated(actorOf(request), request.params.id, request.body.is_deprecated),
      ),
  );
}
