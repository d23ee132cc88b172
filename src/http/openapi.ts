import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyReply } from 'fastify';
import { readPackageFile } from '../shared/package-file.js';
import type { App } from './context.js';
import { refineDocument } from './openapi-refine.js';
import { withETagHeader } from './if-match.js';
import { webhookEventsDoc } from './webhook-events-doc.js';

export interface DocsOptions {
  title: string;
  description: string;
  /** The path prefix of the contour, e.g. `/api/v1`. */
  prefix: string;
  securityScheme: SecurityScheme;
}

/** How a contour authenticates: an API key as a bearer token, or the session cookie. */
export type SecurityScheme =
  | { type: 'http'; scheme: 'bearer'; description?: string }
  | { type: 'apiKey'; in: 'cookie'; name: string; description?: string };

/**
 * Collects the routes registered after it in this scope into an OpenAPI 3
 * document, generated from the same schemas that validate and serialise.
 */
export async function registerDocsCollector(scope: App, options: DocsOptions) {
  await scope.register(swagger, {
    // Shared schemas (the error body) appear under their own $id in components.schemas.
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // A multipart body is read by the handler, not validated by a schema; the document still shows it.
    transform: ({ schema: routeSchema, url, route }) => {
      const schema = route.config?.etag && routeSchema ? withETagHeader(routeSchema) : routeSchema;
      const file = route.config?.multipartFile;
      if (!file || !schema) return { schema, url };
      return {
        url,
        schema: {
          ...schema,
          consumes: ['multipart/form-data'],
          body: { type: 'object', required: [file], properties: { [file]: { type: 'string', format: 'binary' } } },
        },
      };
    },
    // `webhooks`: what a subscribed URL receives (POST /webhooks), each event's body and signed headers.
    transformObject: (document) =>
      'openapiObject' in document
        ? Object.assign(refineDocument(document.openapiObject, options.prefix), { webhooks: webhookEventsDoc() })
        : document.swaggerObject,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.title,
        description:
          `${options.description}\n\nHow the pieces fit together (contours, discovery, pinning, publication, ` +
          `errors, limits): the guide \`docs/api.md\`, served at [${options.prefix}/docs/guide](${options.prefix}/docs/guide).`,
        version: '1.0.0',
      },
      externalDocs: { description: 'The API guide (docs/api.md)', url: `${options.prefix}/docs/guide` },
      servers: [{ url: '/' }],
      components: { securitySchemes: { [SCHEME_NAME]: options.securityScheme } },
      security: [{ [SCHEME_NAME]: [] }],
    },
  });
}

const SCHEME_NAME = 'auth';

/**
 * The docs pages' policy: Swagger UI's own scripts and styles only (its
 * components set inline styles), no frame may hold them, nothing posted away.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const docsHeaders = (_request: unknown, reply: FastifyReply, done: () => void) => {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  done();
};

/** `{prefix}/docs.json`, the interactive UI at `{prefix}/docs`, and the guide at `{prefix}/docs/guide`. */
export async function registerDocsRoutes(scope: App) {
  const docs = { schema: { hide: true }, config: { public: true }, onRequest: docsHeaders };
  scope.get('/docs.json', docs, async () => scope.swagger());
  scope.get('/docs/guide', docs, async (_request, reply) => {
    const guide = readPackageFile('docs/api.md');
    if (guide === undefined) return reply.status(404).send({ error: 'The API guide (docs/api.md) is not installed.' });
    return reply.type('text/markdown; charset=utf-8').send(guide);
  });
  await scope.register(swaggerUi, {
    routePrefix: '/docs',
    // The page's asset links are absolute under the contour's prefix: without it, `/api/v1/docs` (no trailing
    // slash) linked `/docs/static/...` and rendered blank.
    indexPrefix: scope.prefix,
    // No call to validator.swagger.io from a reader's browser.
    uiConfig: { deepLinking: true, validatorUrl: null },
    staticCSP: DOCS_CSP,
    uiHooks: { onRequest: docsHeaders },
  });
}
