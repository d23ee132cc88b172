import type { App, HttpDeps } from '../context.js';
import { actorOf, maybeDry } from '../context.js';
import { sendSerialized } from '../serialized.js';
import { Type } from 'typebox';
import { DryRunQuery, ErrorBodyRef, errorResponses, NoContent, versionConflictResponse } from '../schemas/common.js';
import { expectedVersions, IF_MATCH_NOTE, IfMatchHeaders, pageAnswer } from '../if-match.js';
import {
  AddBlocksBody,
  BlockValuesBody,
  MajorUpgradeBlocked,
  MoveBody,
  PAGE_BOUNDS_NOTE,
  PageBlockParams,
  PageIdParams,
  PageSchema,
  ReplaceBody,
  ReplaceResult,
  UpgradeAllSchema,
} from '../schemas/pages.js';
import { MigrateResult } from '../schemas/migrate.js';

export function pageBlockRoutes(app: App, deps: HttpDeps) {
  const { services } = deps;
  const tags = ['page blocks'];
  const instances = services.pageBlocks;
  // The page after the write, as GET /pages/{id}?with_blocks=1 answers it.
  // Its version is the answer's ETag.
  const pageOf = async (
    request: { params: { pageId: number } } & Parameters<typeof actorOf>[0],
    reply: Parameters<typeof pageAnswer>[0],
  ) => pageAnswer(reply, await services.pages.view(actorOf(request), request.params.pageId, true));

  app.post(
    '/pages/:pageId/blocks',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Add blocks at a 0-based position (default: the end)',
        description: `${PAGE_BOUNDS_NOTE} ${IF_MATCH_NOTE}`,
        params: PageIdParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        body: AddBlocksBody,
        response: { 201: PageSchema, ...errorResponses(400, 401, 403, 404, 422), ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () =>
        pageAnswer(
          reply,
          await instances.add(actorOf(request), request.params.pageId, request.body, expectedVersions(request)),
        ),
      );
      return sendSerialized(reply.status(201), body);
    },
  );

  app.put(
    '/pages/:pageId/blocks/:pbId',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Change the values or bindings of one instance (checked against its pinned revision)',
        description: `${PAGE_BOUNDS_NOTE} ${IF_MATCH_NOTE}`,
        params: PageBlockParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        body: BlockValuesBody,
        response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404, 422), ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () => {
        const { pageId, pbId } = request.params;
        await instances.updateValues(actorOf(request), pageId, pbId, request.body, expectedVersions(request));
        return pageOf(request, reply);
      });
      return sendSerialized(reply, body);
    },
  );

  app.put(
    '/pages/:pageId/blocks/:pbId/move',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Move an instance to a 0-based position, and into or out of a layout',
        description: `${PAGE_BOUNDS_NOTE} ${IF_MATCH_NOTE}`,
        params: PageBlockParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        body: MoveBody,
        response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404, 422), ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () => {
        await instances.move(
          actorOf(request),
          request.params.pageId,
          request.params.pbId,
          request.body.position,
          request.body.parent_page_block_id,
          expectedVersions(request),
        );
        return pageOf(request, reply);
      });
      return sendSerialized(reply, body);
    },
  );

  app.delete(
    '/pages/:pageId/blocks/:pbId',
    {
      schema: {
        tags,
        summary: 'Remove an instance (and its children) from the page',
        description: `${IF_MATCH_NOTE} The answer has no body and no ETag: read the page for its new version.`,
        params: PageBlockParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404), ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      maybeDry(request, deps, async () => {
        const { pageId, pbId } = request.params;
        await instances.remove(actorOf(request), pageId, pbId, expectedVersions(request));
        reply.status(204);
      }),
  );

  app.post(
    '/pages/:pageId/blocks/:pbId/upgrade',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Move an instance to its block’s current revision (minor changes only)',
        description:
          'Values are kept and new fields take their defaults. A major change answers 422 major_upgrade_blocked with removed_fields: use replace. ' +
          PAGE_BOUNDS_NOTE +
          ' The instance is named at `blocks[i]`, its place in the page. ' +
          IF_MATCH_NOTE,
        params: PageBlockParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        response: {
          200: PageSchema,
          422: Type.Union([MajorUpgradeBlocked, ErrorBodyRef], {
            description: 'A major change (`major_upgrade_blocked`), or an instance already up to date',
          }),
          ...errorResponses(400, 401, 403, 404),
          ...versionConflictResponse,
        },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () => {
        const { pageId, pbId } = request.params;
        await services.pageBlockUpgrades.upgrade(actorOf(request), pageId, pbId, expectedVersions(request));
        return pageOf(request, reply);
      });
      return sendSerialized(reply, body);
    },
  );

  app.post(
    '/pages/:pageId/blocks/:pbId/migrate',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Move an instance to its block’s current revision through the migrations on the way (minor or major)',
        description:
          'Each revision after the instance’s, in order: its value migrations, then its new fields’ defaults. A major ' +
          'step needs every removed field carried or dropped by a migration (`migratable` of a blocked upgrade): else ' +
          '422. Values a step cannot make, or that would not validate on the new revision, are a 400 at their paths ' +
          '(`placeholder_values.title`), and nothing changes. One transaction, one page version. ' +
          PAGE_BOUNDS_NOTE +
          ' ' +
          IF_MATCH_NOTE,
        params: PageBlockParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        response: { 200: MigrateResult, ...errorResponses(400, 401, 403, 404, 409, 422), ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () => {
        const { pageId, pbId } = request.params;
        const done = await services.migrations.migrate(actorOf(request), pageId, pbId, expectedVersions(request));
        // The MigrateResult schema's keys, in its order; the ETag is the page's.
        const head = JSON.stringify({ id: done.id, from: done.from, to: done.to, migrated: done.migrated });
        return `${head.slice(0, -1)},"page":${await pageOf(request, reply)}}`;
      });
      return sendSerialized(reply, body);
    },
  );

  app.post(
    '/pages/:pageId/blocks/upgrade-all',
    {
      schema: {
        tags,
        summary: 'All minor upgrades of a page, atomically; majors are listed in skipped_major',
        description:
          `${PAGE_BOUNDS_NOTE} Each instance is named at \`blocks[i]\`, its place in the page. ${IF_MATCH_NOTE} ` +
          'The answer shows no page and has no ETag: read the page for its new version.',
        params: PageIdParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        response: {
          200: UpgradeAllSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422),
          ...versionConflictResponse,
        },
      },
    },
    async (request) =>
      maybeDry(request, deps, () =>
        services.pageBlockUpgrades.upgradeAll(actorOf(request), request.params.pageId, expectedVersions(request)),
      ),
  );

  app.put(
    '/pages/:pageId/blocks/:pbId/replace',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Replace an instance by a new one in the same position, pinned to the current revision',
        description: `${PAGE_BOUNDS_NOTE} ${IF_MATCH_NOTE}`,
        params: PageBlockParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        body: ReplaceBody,
        response: { 200: ReplaceResult, ...errorResponses(400, 401, 403, 404, 422), ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () => {
        const { pageId, pbId } = request.params;
        const id = await instances.replace(actorOf(request), pageId, pbId, request.body, expectedVersions(request));
        // The ReplaceResult schema's keys, in its order; the ETag is the page's.
        return `{"id":${id},"page":${await pageOf(request, reply)}}`;
      });
      return sendSerialized(reply, body);
    },
  );
}
