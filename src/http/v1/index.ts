import type { App, HttpDeps } from '../context.js';
import { registerDocsCollector, registerDocsRoutes } from '../openapi.js';
import { apiKeyAuth } from './auth-hook.js';
import { registerCors } from '../cors.js';
import { registerModules } from '../route-modules.js';

/** `/api/v1`: the public API, for integrations and agents, authenticated by API key. */
export async function v1Api(scope: App, deps: HttpDeps) {
  await registerCors(scope, deps.config.corsOrigins);
  await registerDocsCollector(scope, {
    title: 'Pageblocks public API',
    description: 'Blocks, pages, previews and publication. Every request carries `Authorization: Bearer pb_…`.',
    prefix: '/api/v1',
    securityScheme: { type: 'http', scheme: 'bearer', description: 'An API key: `pb_` followed by 64 hex characters.' },
  });
  await scope.register(async (authed: App) => {
    authed.addHook('onRequest', apiKeyAuth(deps.services.apiKeys, deps.pageReads));
    await registerModules(authed, deps, 'key');
  });
  await registerDocsRoutes(scope);
}
