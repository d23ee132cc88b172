import { timingSafeEqual } from 'node:crypto';
import type { Gauge, Histogram, Registry } from 'prom-client';
import type { JobQueue } from '../modules/jobs/jobs.js';
import type { App } from './context.js';
import { cjsExports } from '../shared/cjs-exports.js';
import { cameThroughProxy, type ProxyTrust } from './proxy-trust.js';
import type { PageReads } from './page-reads.js';

/**
 * What the service measures for `/metrics`, in Prometheus' text format:
 * request durations by route and status, database query time, page render
 * time by outcome, the render caches', kept previews' and kept page answers' hits (with the bytes those
 * answers take), the jobs by state, and the process (CPU, memory, event loop, GC). Built by the composition root, which hands `onQuery` to
 * the database and `onRender` to the render pool.
 */
export interface Metrics {
  registry: Registry;
  /** The database's query observer. */
  onQuery: (seconds: number, failed: boolean) => void;
  /** The render pool's observer (its `RenderEvent`). */
  onRender: (event: {
    seconds: number;
    outcome: string;
    instances: { kept: number; rendered: number };
    templates: 'kept' | 'sent';
  }) => void;
  /** The kept preview documents' observer: each preview looked up, kept or not. */
  onPreview: (kept: boolean) => void;
  /** The page-read cache's observer (`PageReads`): each read that had a version to check, served kept or not. */
  onPageRead: (hit: boolean) => void;
  /** The page-read cache's bytes and hit rate, set at each scrape. */
  pageCache: Gauge<'measure'>;
  requests: Histogram<'method' | 'route' | 'status'>;
  /** Jobs by state, read from the queue's store at each scrape. */
  jobs: Gauge<'state'>;
}

/** Off unless `METRICS=1`: nothing is measured then, and prom-client is not even loaded (bench B5). */
export async function createMetrics(options: { enabled: boolean }): Promise<Metrics | undefined> {
  if (!options.enabled) return undefined;
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = cjsExports(await import('prom-client'));
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'pageblocks_' });
  const requests = new Histogram({
    name: 'pageblocks_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'pageblocks_db_query_duration_seconds',
    help: 'Time of each database query, by outcome (ok, error).',
    labelNames: ['outcome'],
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
    registers: [registry],
  });
  const renders = new Histogram({
    name: 'pageblocks_render_duration_seconds',
    help: 'Time to render a page on the render pool (queueing included), by outcome (ok, or the limit or error that refused it).',
    labelNames: ['outcome'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers: [registry],
  });
  const instances = new Counter({
    name: 'pageblocks_render_instances_total',
    help: "Instances of rendered pages, by cache: hit (HTML kept by the thread's cache) or miss (rendered).",
    labelNames: ['cache'],
    registers: [registry],
  });
  const templates = new Counter({
    name: 'pageblocks_render_templates_total',
    help: 'Pages rendered, by template cache: hit (the thread had parsed every template) or miss (templates sent and parsed).',
    labelNames: ['cache'],
    registers: [registry],
  });
  const previews = new Counter({
    name: 'pageblocks_preview_documents_total',
    help: 'Page previews, by cache: hit (the document kept for the same inputs, nothing rendered) or miss (rendered).',
    labelNames: ['cache'],
    registers: [registry],
  });
  const pageReads = new Counter({
    name: 'pageblocks_page_reads_total',
    help: 'Reads of GET /pages/{id} with an API key, by cache: hit (the kept answer, its page unchanged) or miss (read from the database).',
    labelNames: ['cache'],
    registers: [registry],
  });
  const pageCache = new Gauge({
    name: 'pageblocks_page_cache',
    help: 'The kept page answers: bytes (their size now), budget_bytes (PAGE_CACHE_MB), entries, and hit_ratio (hits over reads since the start).',
    labelNames: ['measure'],
    registers: [registry],
  });
  const jobs = new Gauge({
    name: 'pageblocks_jobs',
    help: 'Jobs of the queue by state: queued (retries included), running, failed, retried (waiting to be tried again).',
    labelNames: ['state'],
    registers: [registry],
  });
  return {
    registry,
    requests,
    jobs,
    pageCache,
    onPreview: (kept) => previews.inc({ cache: kept ? 'hit' : 'miss' }),
    onPageRead: (hit) => pageReads.inc({ cache: hit ? 'hit' : 'miss' }),
    onQuery: (seconds, failed) => queries.observe({ outcome: failed ? 'error' : 'ok' }, seconds),
    onRender: (event) => {
      renders.observe({ outcome: event.outcome }, event.seconds);
      if (event.outcome !== 'ok') return;
      instances.inc({ cache: 'hit' }, event.instances.kept);
      instances.inc({ cache: 'miss' }, event.instances.rendered);
      templates.inc({ cache: event.templates === 'kept' ? 'hit' : 'miss' });
    },
  };
}

/**
 * `/metrics`, when metrics are on: readable with `Authorization: Bearer
 * METRICS_TOKEN`, or, without a token, only by a client on the listen
 * address itself, never through a proxy (which connects from that address
 * too, on behalf of anyone): behind a proxy the token is needed.
 */
export function registerMetrics(
  app: App,
  metrics: Metrics | undefined,
  options: {
    token: string | undefined;
    trust: ProxyTrust | false;
    jobs: Pick<JobQueue, 'counts'>;
    pageReads: Pick<PageReads, 'stats'>;
  },
) {
  if (!metrics) return;
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw path: ids would make a series per page.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requests.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const local = !cameThroughProxy(request, options.trust) && request.ip === request.socket.localAddress;
    if (!allowed(request.headers.authorization, options.token, local)) {
      return reply.status(403).send({
        error: 'Metrics are readable with the metrics token, or from the listen address without a proxy between.',
      });
    }
    // Read at each scrape, from the store every instance shares: the same figures whichever instance answers.
    const counts = await options.jobs.counts();
    for (const [state, count] of Object.entries(counts) as [string, number][]) metrics.jobs.set({ state }, count);
    // This instance's own: each keeps its own answers.
    const kept = options.pageReads.stats;
    metrics.pageCache.set({ measure: 'bytes' }, kept.bytes);
    metrics.pageCache.set({ measure: 'budget_bytes' }, kept.budget);
    metrics.pageCache.set({ measure: 'entries' }, kept.entries);
    metrics.pageCache.set({ measure: 'hit_ratio' }, kept.hits / Math.max(1, kept.hits + kept.misses));
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

function allowed(header: string | undefined, token: string | undefined, local: boolean) {
  if (token) {
    const presented = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '');
    const expected = Buffer.from(token);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  }
  return local;
}
