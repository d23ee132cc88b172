import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { App } from './context.js';

/**
 * `/metrics` in Prometheus' text format: request durations by route and
 * status, and the process (CPU, memory, event loop, GC). Off unless
 * `METRICS=1`; then readable with `Authorization: Bearer METRICS_TOKEN`, or,
 * without a token, only by a client on the listen address itself.
 */
export function registerMetrics(app: App, options: { enabled: boolean; token: string | undefined }) {
  if (!options.enabled) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'pageblocks_' });
  const durations = new Histogram({
    name: 'pageblocks_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw path: ids would make a series per page.
    const route = request.routeOptions.url ?? 'unmatched';
    durations.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!allowed(request.headers.authorization, options.token, request.ip, request.socket.localAddress)) {
      return reply
        .status(403)
        .send({ error: 'Metrics are readable with the metrics token, or from the listen address.' });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

function allowed(header: string | undefined, token: string | undefined, client: string, local: string | undefined) {
  if (token) {
    const presented = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '');
    const expected = Buffer.from(token);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  }
  return local !== undefined && client === local;
}
