import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config/config.js';
import { openDatabase, type Database } from './db/database.js';
import { PageReads } from './http/page-reads.js';
import { apiKeysRepository } from './db/repositories/api-keys.repository.js';
import { sitesRepository } from './db/repositories/sites.repository.js';
import { sessionsRepository, usersRepository } from './db/repositories/users.repository.js';
import { rateLimitsRepository } from './db/repositories/rate-limits.repository.js';
import { uploadsRepository } from './db/repositories/uploads.repository.js';
import type { App } from './http/context.js';
import { createMetrics } from './http/metrics.js';
import { openJobQueue } from './db/jobs/index.js';
import type { JobQueue } from './modules/jobs/jobs.js';
import { createServer } from './http/server.js';
import { ApiKeysService } from './modules/api-keys/api-keys.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { AuthThrottle, DEFAULT_THROTTLE, type ThrottleLimits } from './modules/auth/auth-throttle.js';
import { UsersService } from './modules/auth/users.service.js';
import { SitesService } from './modules/sites/sites.service.js';
import { blocksRepository } from './db/repositories/blocks.repository.js';
import { collectionsRepository } from './db/repositories/collections.repository.js';
import { submissionsRepository } from './db/repositories/submissions.repository.js';
import { sourceIdsRepository } from './db/repositories/source-ids.repository.js';
import { BlocksService } from './modules/blocks/blocks.service.js';
import { PlaceholderSchemaService } from './modules/blocks/placeholder-schema.service.js';
import { CollectionsService } from './modules/collections/collections.service.js';
import { SubmissionsService } from './modules/submissions/submissions.service.js';
import { pagesRepository } from './db/repositories/pages/pages.repository.js';
import { pageHistoryRepository } from './db/repositories/pages/history.repository.js';
import { pageReferencesRepository } from './db/repositories/page-references.repository.js';
import { InstanceBuilder } from './modules/pages/instance-builder.js';
import { PagesService } from './modules/pages/pages.service.js';
import { PageBlocksService } from './modules/pages/page-blocks.service.js';
import { PageBlockUpgradesService } from './modules/pages/page-block-upgrades.service.js';
import { UpgradeImpactService } from './modules/pages/upgrade-impact.js';
import { MigrationImpactService } from './modules/pages/migration-impact.js';
import { PageBlockMigrationsService } from './modules/pages/page-block-migrations.service.js';
import { ValueMigrator } from './modules/pages/value-migrator.js';
import { upgradeImpactRepository } from './db/repositories/upgrade-impact.repository.js';
import { UpgradePlanService } from './modules/pages/upgrade-plan.service.js';
import { upgradePlanRepository } from './db/repositories/upgrade-plan.repository.js';
import { UpgradeSetsService } from './modules/pages/upgrade-sets.service.js';
import { upgradeSetsRepository } from './db/repositories/upgrade-sets.repository.js';
import { PageBounds } from './modules/pages/page-bounds.js';
import { PageHistoryService } from './modules/pages/page-history.service.js';
import { foldersRepository } from './db/repositories/folders.repository.js';
import { FoldersService } from './modules/folders/folders.service.js';
import { layoutsRepository } from './db/repositories/layouts.repository.js';
import { LayoutsService } from './modules/layouts/layouts.service.js';
import { publicationRepository } from './db/repositories/pages/publication.repository.js';
import { renderingRepository } from './db/repositories/pages/rendering.repository.js';
import { PageRenderingService } from './modules/publishing/page-rendering.service.js';
import { PUBLISH_JOB, SchedulesService } from './modules/publishing/schedules.service.js';
import { schedulesRepository } from './db/repositories/pages/schedules.repository.js';
import { PublishingService } from './modules/publishing/publishing.service.js';
import { assertPublicUrl, checkOutboundUrl } from './providers/outbound-guard.js';
import { httpWebhookSender } from './providers/webhooks/http-sender.js';
import { webhooksRepository } from './db/repositories/webhooks.repository.js';
import { DELIVER_JOB, WebhooksService } from './modules/webhooks/webhooks.service.js';
import { withPageEvents, withUpgradeSetEvents } from './modules/webhooks/page-writes.js';
import { fieldError } from './shared/errors.js';
import { createProvider } from './providers/registry.js';
import { RenderPool, type RenderPoolOptions } from './rendering/pool.js';
import { sanitizeRichText } from './rendering/sanitize.js';
import { LiquidTemplateChecker } from './rendering/template-check.js';
import { KeptPreviews, PREVIEW_CACHE_BYTES } from './rendering/kept-previews.js';
import { createStorage } from './storage/registry.js';
import type { Storage } from './modules/uploads/uploads.js';
import { UploadsService } from './modules/uploads/uploads.service.js';
import { catalogRepository } from './db/repositories/catalog.repository.js';
import { pageTypesRepository } from './db/repositories/page-types.repository.js';
import { tagsRepository } from './db/repositories/tags.repository.js';
import { DataSourcesService } from './modules/catalog/data-sources.service.js';
import { PageTypesService } from './modules/catalog/page-types.service.js';
import { TagsService } from './modules/catalog/tags.service.js';
import type { Services } from './services.js';
import { systemClock, type Clock } from './shared/clock.js';

/** How much of a webhook receiver's answer is read and kept in the delivery log. */
const WEBHOOK_EXCERPT_BYTES = 1024;

/** What tests (and benchmarks) may swap. */
export interface AppOverrides {
  clock?: Clock;
  logStream?: DestinationStream;
  throttle?: Partial<ThrottleLimits>;
  /** Host-name resolution of the outbound guard (tests resolve names without DNS). */
  lookup?: (host: string) => Promise<string[]>;
  providerTimeoutMs?: number;
  storage?: Storage;
  /** The render threads' budget, heap and count (tests shorten the budget). */
  renderPool?: RenderPoolOptions;
}

export interface BuiltApp {
  http: App;
  database: Database;
  services: Services;
  /** Work that must happen later (scheduled publications, webhook deliveries). */
  jobs: JobQueue;
  /** Stops accepting requests, finishes those in flight and the running jobs, closes the database. */
  close(): Promise<void>;
}

// Never let these reach a log line, whatever gets logged by mistake.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  // The MCP route's mark on its in-process calls (src/http/mcp-mark.ts): a per-process secret.
  'req.headers["x-pageblocks-mcp"]',
  'headers["x-pageblocks-mcp"]',
  'password',
  'token',
  'key',
  '*.password',
  '*.token',
  '*.key',
];

export function createLogger(config: Config, stream?: DestinationStream): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } }, stream);
}

/** The composition root: the one place that wires every layer together. */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<BuiltApp> {
  const clock = overrides.clock ?? systemClock;
  const logger = createLogger(config, overrides.logStream);
  const metrics = await createMetrics(config.metrics);
  const database = await openDatabase(config, { onQuery: metrics?.onQuery });
  const jobs = await openJobQueue(config, database, clock, logger);

  const outbound = { allowPrivate: config.providerAllowPrivate, ...(overrides.lookup && { lookup: overrides.lookup }) };
  const webhooks = new WebhooksService({
    rows: webhooksRepository(database),
    jobs,
    transact: database.transact,
    send: httpWebhookSender({
      ...outbound,
      timeoutMs: config.webhooks.timeoutSeconds * 1000,
      excerptBytes: WEBHOOK_EXCERPT_BYTES,
    }),
    checkUrl: async (url) => {
      const decision = await checkOutboundUrl(url, outbound);
      if (!decision.allowed) throw fieldError('url', decision.reason.replaceAll('base_url', 'url'));
    },
    settings: { retryLimit: config.jobs.retryLimit, disableAfter: config.webhooks.disableAfter },
    clock,
  });
  const users = usersRepository(database);
  const sources = sourceIdsRepository(database);
  const blockRows = blocksRepository(database);
  const blocks = new BlocksService({
    blocks: blockRows,
    sources,
    clock,
    templates: new LiquidTemplateChecker(overrides.renderPool?.renderer),
    outbox: webhooks,
  });
  const dataSources = new DataSourcesService({ catalog: catalogRepository(database), clock });
  const placeholderSchemas = new PlaceholderSchemaService(blocks, dataSources);
  // Sites name a layout and layouts name a site: each checks the other through a closure.
  const sites: SitesService = new SitesService({
    sites: sitesRepository(database),
    clock,
    checkLayout: (actor, id) => layouts.get(actor, id).then(() => undefined),
  });
  const layouts: LayoutsService = new LayoutsService({
    layouts: layoutsRepository(database),
    checkSite: (actor, id) => sites.get(actor, id).then(() => undefined),
    clock,
  });
  const pageRows = pagesRepository(database, { historyLimit: config.pageHistoryLimit });
  // The services that change a page's instances write through this: each write with its page.updated.
  const pageRowsWithEvents = withPageEvents(pageRows, webhooks);
  const instances = new InstanceBuilder({ blocks, schemas: placeholderSchemas, sources, sanitize: sanitizeRichText });
  const renderer = new RenderPool({ ...overrides.renderPool, onRender: metrics?.onRender });
  const rendering = new PageRenderingService({
    rows: renderingRepository(database),
    blocks,
    instances,
    renderer,
    previews: new KeptPreviews(PREVIEW_CACHE_BYTES, metrics?.onPreview),
  });
  // Every page write is checked against both: its JSON here, its HTML rendered on the pool.
  const bounds = new PageBounds({ jsonLimit: config.pageJsonLimit, rendered: rendering });
  const pages = new PagesService({
    pages: pageRows,
    sites,
    references: pageReferencesRepository(database),
    instances,
    bounds,
    clock,
    outbox: webhooks,
  });
  const scheduleRows = schedulesRepository(database);
  const publishing = new PublishingService({
    publication: publicationRepository(database),
    schedules: scheduleRows,
    pages,
    sites,
    rendering,
    providers: (type, settings) =>
      createProvider(type, settings, {
        ...outbound,
        ...(overrides.providerTimeoutMs && { timeoutMs: overrides.providerTimeoutMs }),
      }),
    guard: async (url) => {
      await assertPublicUrl(url, outbound);
    },
    clock,
    outbox: webhooks,
  });
  const upgradePlan = new UpgradePlanService({
    blocks,
    rows: upgradePlanRepository(database),
    instances,
    renderer: rendering,
    chains: blockRows,
    migrator: new ValueMigrator(renderer),
  });
  // What the services of one page's instances are built with: their writes, and their pins moved forward.
  const onePage = { pages: pageRowsWithEvents, pagesService: pages, blocks, instances, bounds, clock };
  const services: Services = {
    auth: new AuthService({
      users,
      sessions: sessionsRepository(database),
      clock,
      throttle: new AuthThrottle(rateLimitsRepository(database), { ...DEFAULT_THROTTLE, ...overrides.throttle }),
      registration: config.registration,
    }),
    users: new UsersService(users),
    apiKeys: new ApiKeysService({ keys: apiKeysRepository(database), clock }),
    sites,
    blocks,
    placeholderSchemas,
    collections: new CollectionsService({ collections: collectionsRepository(database), clock }),
    submissions: new SubmissionsService({ submissions: submissionsRepository(database), blocks, rendering, clock }),
    pages,
    pageBlocks: new PageBlocksService(onePage),
    pageBlockUpgrades: new PageBlockUpgradesService({ ...onePage, chains: blockRows }),
    migrations: new PageBlockMigrationsService({
      pages: pageRowsWithEvents,
      pagesService: pages,
      blocks,
      chains: blockRows,
      instances,
      bounds,
      migrator: new ValueMigrator(renderer),
      clock,
    }),
    upgradeImpact: new UpgradeImpactService({ rows: upgradeImpactRepository(database), migrations: upgradePlan }),
    migrationImpact: new MigrationImpactService({ plans: upgradePlan }),
    upgradePlan,
    upgradeSets: new UpgradeSetsService({
      plans: upgradePlan,
      // Each set's pages with their page.updated, in the set's transaction.
      sets: withUpgradeSetEvents(upgradeSetsRepository(database, { historyLimit: config.pageHistoryLimit }), webhooks),
      pages: pageRows,
      history: pageHistoryRepository(database, { historyLimit: config.pageHistoryLimit }),
      instances,
      bounds,
      clock,
    }),
    history: new PageHistoryService({
      history: pageHistoryRepository(database, { historyLimit: config.pageHistoryLimit }),
      pages,
      blocks,
      rendering,
      bounds,
      clock,
      outbox: webhooks,
    }),
    folders: new FoldersService({ folders: foldersRepository(database), sites, clock }),
    layouts,
    dataSources,
    tags: new TagsService({ tags: tagsRepository(database, 'tags'), noun: 'Tag' }),
    layoutTags: new TagsService({ tags: tagsRepository(database, 'layout_tags'), noun: 'Layout tag' }),
    pageTypes: new PageTypesService({ pageTypes: pageTypesRepository(database) }),
    rendering,
    publishing,
    schedules: new SchedulesService({
      schedules: scheduleRows,
      publishing,
      jobs,
      actorOf: async (userId) => {
        const user = await users.findById(userId);
        return user && !user.is_blocked ? { userId, isAdmin: user.is_admin } : undefined;
      },
      retryLimit: config.jobs.retryLimit,
      clock,
      outbox: webhooks,
    }),
    webhooks,
    uploads: new UploadsService({
      storage: overrides.storage ?? (await createStorage(config)),
      uploads: uploadsRepository(database),
      limits: config.uploads,
      blocks,
      blockRows,
      sites,
      publicUrl: config.publicUrl,
      clock,
    }),
  };

  if (config.adminEmail && config.adminPassword) {
    await services.auth.ensureAdmin(config.adminEmail, config.adminPassword);
  }

  const http = await createServer({
    services,
    config,
    logger,
    metrics,
    ready: { database: () => database.ping(), jobs: () => jobs.check() },
    jobs,
    dryRun: database.dryRun,
    pageReads: new PageReads({ budget: config.pageCacheBytes, onRead: metrics?.onPageRead }),
  });
  // Registered before the queue starts: a schedule due while the service was down runs now.
  jobs.work(PUBLISH_JOB, (job) => services.schedules.run(job));
  // A delivery recorded before a crash or a stop is sent after the start.
  jobs.work(DELIVER_JOB, (job) => webhooks.run(job));
  await jobs.start();
  return {
    http,
    database,
    services,
    jobs,
    close: async () => {
      await http.close();
      await jobs.stop();
      await renderer.close();
      await database.close();
    },
  };
}
