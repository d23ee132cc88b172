import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { App, HttpDeps } from './context.js';
import { errorHandler, registerNotFound } from './errors.js';
import { limitJsonDepth } from './json-body.js';
import { refuseUnstorableText } from './text-guard.js';
import { trackRoutes } from './route-table.js';
import { lazySchemaCompilers } from './schema-compilers.js';
import { ErrorBody, namedSchemas } from './schemas/common.js';
import { v1Api } from './v1/index.js';
import { registerUploads } from './uploads-files.js';
import { registerWebApp } from './web-app.js';
import { registerMetrics, type Metrics } from './metrics.js';
import { proxyTrust, warnUntrustedProxy } from './proxy-trust.js';
import { webApi } from './web/index.js';
import { isObject } from '../shared/is-object.js';
import type { JobQueue } from '../modules/jobs/jobs.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface ServerOptions extends HttpDeps {
  logger: Logger;
  /** Answers `GET /ready`: does each part the service needs answer (the database, the job queue)? */
  ready: Record<'database' | 'jobs', () => Promise<void>>;
  /** Counted by state in `/metrics`. */
  jobs: Pick<JobQueue, 'counts'>;
  /** What `/metrics` shows, when on. */
  metrics?: Metrics | undefined;
}

/** The HTTP server: the only place that knows Fastify. Built, not started. */
export async function createServer(options: ServerOptions): Promise<App> {
  // Fastify types its instance by the logger it is given: the base logger keeps the one App type.
  const loggerInstance: FastifyBaseLogger = options.logger;
  const trust = proxyTrust(options.config.trustProxy);
  const app = Fastify({
    loggerInstance,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    // Silent (as the benchmarks run): a per-request child, binding the request id, would log nothing.
    childLoggerFactory: (logger, bindings, opts) => (logger.level === 'silent' ? logger : logger.child(bindings, opts)),
    bodyLimit: options.config.bodyLimit,
    trustProxy: trust,
    // A caller's own request id is kept when it is a safe token; otherwise a new one.
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  limitJsonDepth(app);
  const compilers = lazySchemaCompilers(namedSchemas());
  app.setValidatorCompiler(compilers.validator);
  app.setSerializerCompiler(compilers.serializer);
  app.decorate('compileSchemas', compilers.compileAll);
  app.setErrorHandler(errorHandler);
  // Described once; every route's error responses refer to it (`Error#`), and answers to the named shapes.
  app.addSchema(ErrorBody);
  for (const schema of namedSchemas()) app.addSchema(schema);
  const routeTable = trackRoutes(app);
  // The browser app at `/`; its routes (`/pages/12`) fall back to its index.html.
  const webApp = await registerWebApp(app, { dir: options.config.webDir });
  registerNotFound(app, routeTable.allowedMethods, webApp);
  app.decorate('routeTable', routeTable);
  app.decorateRequest('actor', null);
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('keyPrefix', null);
  app.decorateRequest('pageVersion', null);

  // One line per request, after it is answered: at info, or at error for a
  // 5xx (whose stack the error handler logged under the same request id). The
  // path never carries the query string (where a misplaced key could sit); no
  // headers are logged, only the key's public prefix.
  // A callback hook, not an async one: no promise per request. The line is only
  // built when its level is on (the benchmarks run silent).
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    if (options.logger.isLevelEnabled(level)) {
      const line = {
        method: request.method,
        route: request.routeOptions.url ?? null,
        path: request.url.split('?')[0],
        status,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        user_id: request.actor?.userId ?? null,
        key_prefix: request.keyPrefix,
        client: request.ip,
        ...(status >= 400 && { error: errorMessages.get(request) ?? null }),
      };
      request.log[level](line, 'request');
    }
    done();
  });
  // After authentication (onRequest), before schema validation.
  app.addHook('preValidation', refuseUnstorableText);
  // The message of an error answer, read back for its log line.
  const errorMessages = new WeakMap<object, string>();
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.startsWith('{')) {
      try {
        const answer: unknown = JSON.parse(payload);
        if (isObject(answer) && typeof answer.error === 'string') errorMessages.set(request, answer.error);
      } catch {
        // not JSON after all: nothing to log
      }
    }
    done(null, payload);
  });

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/ready', { schema: { hide: true } }, async (request, reply) => {
    const parts = { database: 'The database', jobs: 'The job queue' } as const;
    for (const [part, check] of Object.entries(options.ready) as [keyof typeof parts, () => Promise<void>][]) {
      try {
        await check();
      } catch (error) {
        request.log.warn({ err: error, part }, 'not ready');
        return reply.status(503).send({ error: `${parts[part]} does not answer.` });
      }
    }
    return { status: 'ready' };
  });

  await registerUploads(app, options.services.uploads);
  registerMetrics(app, options.metrics, {
    token: options.config.metrics.token,
    trust,
    jobs: options.jobs,
    pageReads: options.pageReads,
  });
  if (trust === false) warnUntrustedProxy(app);
  await app.register((scope: App) => v1Api(scope, options), { prefix: '/api/v1' });
  await app.register((scope: App) => webApi(scope, options), { prefix: '/api' });
  return app;
}
