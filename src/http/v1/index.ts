import type { App, HttpDeps } from '../context.js';
import { registerDocsCollector, registerDocsRoutes } from '../openapi.js';
import { apiKeyAuth } from './auth-hook.js';
import { siteRoutes } from './sites.routes.js';
import { blockRoutes } from './blocks.routes.js';
import { collectionRoutes } from './collections.routes.js';
import { submissionRoutes } from './submissions.routes.js';
import { pageRoutes } from './pages.routes.js';
import { pageBlockRoutes } from './page-blocks.routes.js';
import { folderRoutes } from './folders.routes.js';
import { layoutRoutes } from './layouts.routes.js';
import { publishingRoutes } from './publishing.routes.js';
import { uploadRoutes } from './uploads.routes.js';
import multipart from '@fastify/multipart';
import { catalogRoutes } from './catalog.routes.js';

/** `/api/v1`: the public API, for integrations and agents, authenticated by API key. */
export async function v1Api(scope: App, deps: HttpDeps) {
  await registerDocsCollector(scope, {
    title: 'Pageblocks public API',
    description: 'Blocks, pages, previews and publication. Every request carries `Authorization: Bearer pb_…`.',
    prefix: '/api/v1',
    securityScheme: { type: 'http', scheme: 'bearer', description: 'An API key: `pb_` followed by 64 hex characters.' },
  });
  await scope.register(async (authed: App) => {
    authed.addHook('onRequest', apiKeyAuth(deps.services.apiKeys));
    siteRoutes(authed, deps);
    blockRoutes(authed, deps);
    collectionRoutes(authed, deps);
    submissionRoutes(authed, deps);
    pageRoutes(authed, deps);
    pageBlockRoutes(authed, deps);
    catalogRoutes(authed, deps);
    folderRoutes(authed, deps);
    layoutRoutes(authed, deps);
    publishingRoutes(authed, deps);
    await authed.register(multipart, { limits: { fileSize: 100 * 1024 * 1024, files: 1 } });
    uploadRoutes(authed, deps);
  });
  await registerDocsRoutes(scope);
}
