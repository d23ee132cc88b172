import cookie from '@fastify/cookie';
import type { App, HttpDeps } from '../context.js';
import { registerDocsCollector, registerDocsRoutes } from '../openapi.js';
import { adminUserRoutes } from './admin-users.routes.js';
import { adminBlockRoutes } from './admin-blocks.routes.js';
import { adminCollectionRoutes } from './admin-collections.routes.js';
import { adminSubmissionRoutes } from './admin-submissions.routes.js';
import { adminLayoutRoutes } from './admin-layouts.routes.js';
import { apiKeyRoutes } from './api-keys.routes.js';
import { authRoutes } from './auth.routes.js';
import { sessionAuth, requireAdmin } from './session-hook.js';
import { adminCatalogRoutes } from './admin-catalog.routes.js';
import { registerModules } from '../route-modules.js';

/** `/api`: the web interface's contour, authenticated by the `pb_session` cookie. */
export async function webApi(scope: App, deps: HttpDeps) {
  // Cookies are this contour's alone: the key contour neither reads nor sets one.
  await scope.register(cookie);
  await registerDocsCollector(scope, {
    title: 'Pageblocks web contour',
    description:
      "The web interface's contour, authenticated by the `pb_session` cookie: accounts, API keys and administration, " +
      'and every operation of `/api/v1` (blocks, pages, previews, catalog, publication) under the same paths without ' +
      '`/v1`. Not for integrations: they use `/api/v1` with a key.',
    prefix: '/api',
    securityScheme: { type: 'apiKey', in: 'cookie', name: 'pb_session' },
  });
  await scope.register(async (session: App) => {
    session.addHook('onRequest', sessionAuth(deps.services.auth, new URL(deps.config.publicUrl).origin));
    authRoutes(session, deps);
    apiKeyRoutes(session, deps);
    // The public API's operations, a second time: the same modules behind the session hook.
    await registerModules(session, deps, 'session');
    await session.register(async (admin: App) => {
      admin.addHook('onRequest', async (request) => requireAdmin(request));
      adminUserRoutes(admin, deps);
      adminBlockRoutes(admin, deps);
      adminCollectionRoutes(admin, deps);
      adminSubmissionRoutes(admin, deps);
      adminCatalogRoutes(admin, deps);
      adminLayoutRoutes(admin, deps);
    });
  });
  await registerDocsRoutes(scope);
}
