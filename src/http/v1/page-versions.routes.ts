import type { App, HttpDeps } from '../context.js';
import { actorOf, maybeDry } from '../context.js';
import { presentVersion } from '../presenters/history.presenter.js';
import { expectedVersions, IF_MATCH_NOTE, IfMatchHeaders, pageAnswer } from '../if-match.js';
import { sendPreview } from '../preview-reply.js';
import { sendSerialized } from '../serialized.js';
import {
  DiffQuery,
  PageVersionSchema,
  VersionDiffSchema,
  VersionEntrySchema,
  VersionParams,
} from '../schemas/history.js';
import { DryRunQuery, errorResponses, IdParams, Paged, PageQuery, versionConflictResponse } from '../schemas/common.js';
import { PAGE_BOUNDS_NOTE, PageSchema } from '../schemas/pages.js';
import { HtmlDocument } from '../schemas/publishing.js';

/** A page's history: every successful write made one version (README.md of src/db/repositories/pages, Versions). */
export function pageVersionRoutes(app: App, deps: HttpDeps) {
  const history = deps.services.history;
  const tags = ['page history'];

  app.get(
    '/pages/:id/versions',
    {
      schema: {
        tags,
        summary:
          'The page’s versions, newest first: who made each (user, and key, session or MCP), when, and what changed',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: Paged(VersionEntrySchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => history.list(actorOf(request), request.params.id, request.query),
  );

  app.get(
    '/pages/:id/versions/:number',
    {
      schema: {
        tags,
        summary:
          'The page as it was at version n, in the shape of GET /pages/{id}?with_blocks=1, each block with its pin',
        params: VersionParams,
        response: { 200: PageVersionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const version = await history.get(actor, request.params.id, request.params.number);
      return presentVersion(await deps.services.pages.get(actor, request.params.id), version);
    },
  );

  app.get(
    '/pages/:id/versions/:number/preview',
    {
      schema: {
        tags: [...tags, 'preview'],
        summary: 'Version n as HTML, rendered with the revisions it pinned (stub data in bound slots)',
        description:
          'The bytes of the page’s preview when version n was current, whatever its blocks became since. A version ' +
          'with a block deleted since cannot be rendered: 409 at blocks[i]. Renders take their turn on the shared ' +
          'render threads (429 with Retry-After, as GET /pages/{id}/preview).',
        params: VersionParams,
        response: { 200: HtmlDocument, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      sendPreview(reply, await history.preview(actorOf(request), request.params.id, request.params.number)),
  );

  app.get(
    '/pages/:id/versions/:number/diff',
    {
      schema: {
        tags,
        summary: 'What changed from version n to version `to` (default: the current one)',
        description:
          'Blocks added, removed and moved (by instance id), pins changed (from, to), values and bindings changed leaf ' +
          'by leaf at their path (blocks[2].placeholder_values.items[0].title, the place in `to`), metadata changed.',
        params: VersionParams,
        querystring: DiffQuery,
        response: { 200: VersionDiffSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => history.diff(actorOf(request), request.params.id, request.params.number, request.query.to),
  );

  app.post(
    '/pages/:id/versions/:number/restore',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Make a new version equal to version n, with the pins as they were',
        description:
          'Instances still on the page keep their ids; those removed since come back with new ids; the others leave. ' +
          'An instance restored onto an older revision is outdated again (update_status says so). The page keeps its ' +
          'site and folder. A block of version n deleted since, or no longer visible to you, is a 409 with errors[] at ' +
          'blocks[i] (the place in version n), and nothing changes; a slug taken since is a 409 at slug. A restore is ' +
          `a write like any other. ${PAGE_BOUNDS_NOTE} Here that place is in version n (blocks[i]…). ${IF_MATCH_NOTE}`,
        params: VersionParams,
        headers: IfMatchHeaders,
        querystring: DryRunQuery,
        response: { 200: PageSchema, ...errorResponses(400, 401, 403, 404, 409, 422), ...versionConflictResponse },
      },
    },
    async (request, reply) => {
      const body = await maybeDry(request, deps, async () =>
        pageAnswer(
          reply,
          await history.restore(actorOf(request), request.params.id, request.params.number, expectedVersions(request)),
        ),
      );
      return sendSerialized(reply, body);
    },
  );
}
