import multipart from '@fastify/multipart';
import type { App, HttpDeps } from './context.js';
import { discardRest, MULTIPART_LIMITS } from './uploads.js';
// The order the schema modules are first loaded in is the order of the documents' `components.schemas`:
// the upgrade sets' shapes follow the block's and the upgrade plan's, as they did in one file.
import { blockRoutes } from './v1/blocks.routes.js';
import { upgradeRoutes } from './v1/upgrades.routes.js';
import { catalogRoutes } from './v1/catalog.routes.js';
import { collectionRoutes } from './v1/collections.routes.js';
import { folderRoutes } from './v1/folders.routes.js';
import { layoutRoutes } from './v1/layouts.routes.js';
import { mcpRoutes } from './v1/mcp.routes.js';
import { pageBlockRoutes } from './v1/page-blocks.routes.js';
import { pageRoutes } from './v1/pages.routes.js';
import { pageVersionRoutes } from './v1/page-versions.routes.js';
import { publishingRoutes } from './v1/publishing.routes.js';
import { siteRoutes } from './v1/sites.routes.js';
import { submissionRoutes } from './v1/submissions.routes.js';
import { uploadRoutes } from './v1/uploads.routes.js';
import { webhookRoutes } from './v1/webhooks.routes.js';

/** The caller's contour: `key` is `/api/v1` (API key), `session` is `/api` (the web app's cookie). */
export type Contour = 'key' | 'session';

export interface RouteModule {
  /** The first segment of its paths where it has one (`sites` for `/sites/...`). */
  name: string;
  register(scope: App, deps: HttpDeps): void | Promise<void>;
  /**
   * Served on `/api/v1` only, never on the session contour: for operations
   * that make sense only to an integration holding a key.
   */
  keyOnly?: boolean;
}

/**
 * The operations of the public API. Each module is written once and registered
 * on both contours by `registerModules`, behind each contour's own auth hook:
 * the same services, the same schemas, the same rules.
 */
export const ROUTE_MODULES: readonly RouteModule[] = [
  { name: 'sites', register: siteRoutes },
  { name: 'blocks', register: blockRoutes },
  { name: 'upgrade-sets', register: upgradeRoutes },
  { name: 'collections', register: collectionRoutes },
  { name: 'submissions', register: submissionRoutes },
  { name: 'pages', register: pageRoutes },
  { name: 'page-blocks', register: pageBlockRoutes },
  { name: 'page-versions', register: pageVersionRoutes },
  { name: 'catalog', register: catalogRoutes },
  { name: 'folders', register: folderRoutes },
  { name: 'layouts', register: layoutRoutes },
  { name: 'publishing', register: publishingRoutes },
  { name: 'webhooks', register: webhookRoutes },
  // The MCP endpoint answers a key's agent; the web app has no use for it.
  { name: 'mcp', register: mcpRoutes, keyOnly: true },
  {
    name: 'uploads',
    // Multipart bodies are parsed in this module's own scope, nowhere else.
    register: (scope, deps) =>
      scope.register(async (uploads: App) => {
        await uploads.register(multipart, { limits: MULTIPART_LIMITS });
        uploads.addHook('onResponse', async (request) => discardRest(request.raw));
        uploadRoutes(uploads, deps);
      }),
  },
];

/** Registers the modules that belong on `contour` into an authenticated scope. */
export async function registerModules(
  scope: App,
  deps: HttpDeps,
  contour: Contour,
  modules: readonly RouteModule[] = ROUTE_MODULES,
) {
  for (const module of modules) {
    if (module.keyOnly && contour !== 'key') continue;
    await module.register(scope, deps);
  }
}
