import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, badGateway, conflict, fieldError, notFound, validationError } from '../../shared/errors.js';
import type { SitesService } from '../sites/sites.service.js';
import type { PagesService } from '../pages/pages.service.js';
import type { Page } from '../pages/pages.js';
import { pageEvent } from '../webhooks/events.js';
import { NO_OUTBOX, type Outbox, type PageRef } from '../webhooks/webhooks.js';
import type { PageRenderingService } from './page-rendering.service.js';
import type {
  CmsProvider,
  CmsProviders,
  OutboundGuard,
  ProviderCheck,
  ProviderRecord,
  PublicationStatus,
  PublicationRepository,
  PublishDocument,
  PublishInput,
  ScheduleRepository,
  RenderablePage,
} from './publishing.js';

// A claim older than this belongs to an attempt that died: the provider's time-out plus a margin.
const CLAIM_TTL_MS = 60_000;
const ARTICLE_ONLY = ['rubric_ids', 'meta_title', 'meta_description', 'slug', 'preview_text'] as const;

/**
 * Publication to the site's CMS provider. Any failure leaves the state as it was.
 */
export class PublishingService {
  constructor(
    private readonly deps: {
      publication: PublicationRepository;
      /** Read into every status: a page's scheduled publication and its last run. */
      schedules: Pick<ScheduleRepository, 'get'>;
      pages: PagesService;
      sites: SitesService;
      rendering: PageRenderingService;
      providers: CmsProviders;
      /** Checked when the settings are saved; the adapter checks again before every call. */
      guard: OutboundGuard;
      clock: Clock;
      /** page.published and publication.failed, recorded with the publication's state. */
      outbox?: Outbox;
    },
  ) {}

  private get outbox(): Outbox {
    return this.deps.outbox ?? NO_OUTBOX;
  }

  async status(actor: Actor, pageId: number): Promise<PublicationStatus> {
    const page = await this.deps.pages.get(actor, pageId);
    return this.withVersions(statusOf(page), pageId, page.version);
  }

  /**
   * The status with where the page's versions stand: the latest one sent, and
   * whether the page moved past it. Read after the write it follows (a
   * publication's mark), so that a change made during the call shows too.
   */
  private async withVersions(status: BaseStatus, pageId: number, read: number): Promise<PublicationStatus> {
    const [versions, schedule] = await Promise.all([
      this.deps.publication.versionState(pageId),
      this.deps.schedules.get(pageId),
    ]);
    const state = versions ?? { version: read, published_version: null };
    return {
      ...status,
      published_version: state.published_version,
      has_unpublished_changes: status.is_published && state.published_version !== state.version,
      scheduled_at: schedule?.jobId ? schedule.publishAt : null,
      last_scheduled_run: schedule?.lastRun ?? null,
    };
  }

  async providerRecord(actor: Actor, siteId: number): Promise<ProviderRecord> {
    await this.deps.sites.get(actor, siteId);
    return this.deps.publication.providerRecord(siteId);
  }

  /**
   * The token is stored for the calls and never shown again. The answer
   * tells whether the provider accepts the settings; a failed check never
   * refuses them (the provider may be down for a moment).
   */
  async setFourcms(
    actor: Actor,
    siteId: number,
    input: { base_url: string; token: string },
  ): Promise<ProviderRecord & { check: ProviderCheck }> {
    await this.deps.sites.get(actor, siteId);
    await this.deps.guard(input.base_url);
    const baseUrl = input.base_url.replace(/\/+$/, '');
    const record = await this.deps.publication.saveProvider({
      siteId,
      type: 'fourcms',
      baseUrl,
      token: input.token,
      now: this.now(),
    });
    const check = await this.check(this.deps.providers('fourcms', { base_url: baseUrl, token: input.token }));
    return { ...record, check };
  }

  /** The stored settings' connection check; a site without a provider is a failed check that says so. */
  async checkProvider(actor: Actor, siteId: number): Promise<ProviderCheck> {
    await this.deps.sites.get(actor, siteId);
    const stored = await this.deps.publication.provider(siteId);
    if (!stored) return { ok: false, error: noProvider(siteId) };
    return this.check(this.deps.providers(stored.type, { base_url: stored.base_url, token: stored.token }));
  }

  private async check(provider: CmsProvider): Promise<ProviderCheck> {
    try {
      await provider.check();
      return { ok: true };
    } catch (error) {
      if (error instanceof AppError && error.kind === 'bad_gateway') return { ok: false, error: error.message };
      throw error;
    }
  }

  /** `scheduled`: a scheduled run's try, whose failure its schedule reports once it is final. */
  async publish(actor: Actor, pageId: number, input: PublishInput, scheduled = false): Promise<PublicationStatus> {
    const source = await this.deps.rendering.read(actor, pageId);
    const { page } = source;
    firstPublicationChecks(page, input);
    const provider = await this.providerOf(page.site_id);
    return this.underClaim(page, false, scheduled, async () => {
      const doc: PublishDocument = {
        kind: page.kind,
        title: input.name ?? page.name,
        ...(page.kind === 'article' && {
          rubric_ids: input.rubric_ids!,
          slug: input.slug ?? page.slug ?? undefined,
          meta_title: input.meta_title ?? page.meta_title ?? undefined,
          meta_description: input.meta_description ?? page.meta_description ?? undefined,
          ...(input.preview_text !== undefined && { preview_text: input.preview_text }),
        }),
        ...(await this.content(actor, source)),
      };
      const ref = await this.call(() => provider.publish(doc));
      const now = this.now();
      await this.outbox.within(
        () =>
          this.deps.publication.markPublished({
            pageId,
            version: page.version,
            externalId: ref.id,
            externalSlug: ref.slug,
            now,
          }),
        () => [published(page, { external_id: ref.id, external_slug: ref.slug, update: false, scheduled })],
      );
      const status: BaseStatus = {
        is_published: true,
        external_id: ref.id,
        external_slug: ref.slug,
        published_at: now,
        updated_at: now,
        last_error: null,
        last_error_at: null,
      };
      return this.withVersions(status, pageId, page.version);
    });
  }

  /**
   * Checks `input` as the publication the page would get now would check it
   * (publish, or publish-update once published), its site and provider
   * included, without calling the provider: what a schedule is checked by.
   */
  async checkPublication(actor: Actor, pageId: number, input: PublishInput): Promise<'publish' | 'update'> {
    return (await this.checkedPage(actor, pageId, input)).mode;
  }

  /** As `checkPublication`, with the page as it was read. */
  async checkedPage(actor: Actor, pageId: number, input: PublishInput) {
    const { page } = await this.deps.rendering.read(actor, pageId);
    if (page.is_published) updateChecks(statusOf(page), input);
    else firstPublicationChecks(page, input);
    await this.providerOf(page.site_id);
    return { mode: page.is_published ? ('update' as const) : ('publish' as const), page };
  }

  /** Regenerates HTML, CSS and JS; metadata on the site changes only when sent. */
  async publishUpdate(
    actor: Actor,
    pageId: number,
    input: PublishInput,
    scheduled = false,
  ): Promise<PublicationStatus> {
    const source = await this.deps.rendering.read(actor, pageId);
    const status = statusOf(source.page);
    updateChecks(status, input);
    const provider = await this.providerOf(source.page.site_id);
    return this.underClaim(source.page, true, scheduled, async () => {
      const metadata = Object.fromEntries(
        Object.entries({ ...input, title: input.name }).filter(([key, value]) => value !== undefined && key !== 'name'),
      );
      const content = await this.content(actor, source);
      const ref = await this.call(() => provider.update(status.external_id!, { ...metadata, ...content }));
      const externalSlug = ref.slug ?? status.external_slug;
      const now = this.now();
      await this.outbox.within(
        () => this.deps.publication.markUpdated({ pageId, version: source.page.version, externalSlug, now }),
        () => [
          published(source.page, {
            external_id: status.external_id,
            external_slug: externalSlug,
            update: true,
            scheduled,
          }),
        ],
      );
      const updated = {
        ...status,
        external_slug: externalSlug,
        updated_at: now,
        last_error: null,
        last_error_at: null,
      };
      return this.withVersions(updated, pageId, source.page.version);
    });
  }

  private async content(actor: Actor, source: RenderablePage) {
    const rendered = await this.deps.rendering.render(source, { userId: actor.userId, purpose: 'publication' });
    return {
      html: rendered.html,
      css: rendered.css,
      js: rendered.js,
      blocks: source.instances.map((b) => ({
        id: b.id,
        block_id: b.block_id,
        version: b.version,
        template: b.revision.template,
        placeholder_values: b.placeholder_values.value,
        bindings: b.bindings,
      })),
    };
  }

  private async providerOf(siteId: number | null): Promise<CmsProvider> {
    if (siteId === null) throw fieldError('site_id', 'The page has no site: set site_id with PUT /pages/{id} first.');
    const stored = await this.deps.publication.provider(siteId);
    if (!stored) throw fieldError('site_id', noProvider(siteId));
    return this.deps.providers(stored.type, { base_url: stored.base_url, token: stored.token });
  }

  /**
   * Holds the page's publication claim around `work`, which answers the new
   * state (no one else writes it while the claim is held); the claim goes
   * whatever happens.
   */
  private async underClaim(
    page: PageRef,
    published: boolean,
    scheduled: boolean,
    work: () => Promise<PublicationStatus>,
  ): Promise<PublicationStatus> {
    const pageId = page.id;
    const now = this.deps.clock.now();
    const claimed = await this.deps.publication.claim({
      pageId,
      expectPublished: published,
      now: now.toISOString(),
      staleBefore: new Date(now.getTime() - CLAIM_TTL_MS).toISOString(),
    });
    if (!claimed) {
      // No claim: the page is already published (or not yet), another publication holds it, or it went
      // since it was read: deleted in between, it answers as it would had it gone before.
      const status = await this.deps.publication.status(pageId);
      if (!status) throw notFound(`Page ${pageId} not found.`);
      if (status.is_published !== published) {
        throw fieldError(
          'root',
          published
            ? 'The page was never published: use POST /pages/{id}/publish first.'
            : 'The page is already published: use POST /pages/{id}/publish-update.',
        );
      }
      throw conflict('Another publication of this page is in progress: try again in a moment.');
    }
    try {
      return await work();
    } catch (error) {
      // The provider's refusal is kept (its message is already free of the token), so that the status tells it later.
      if (error instanceof AppError && error.kind === 'bad_gateway')
        await this.outbox.within(
          () => this.deps.publication.markFailed({ pageId, message: error.message, now: this.now() }),
          // A scheduled run's try may be followed by another: its schedule says when it failed for good.
          () => (scheduled ? [] : [pageEvent('publication.failed', page, { error: error.message, scheduled })]),
        );
      throw error;
    } finally {
      // After success the mark cleared the claim already; after a failure this releases it.
      await this.deps.publication.release(pageId);
    }
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw badGateway(`The CMS provider failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }
}

const published = (page: PageRef, more: Record<string, unknown>) =>
  pageEvent('page.published', page, { published_version: page.version, ...more });

/** The publication state as the page's row holds it, without its versions. */
type BaseStatus = Omit<
  PublicationStatus,
  'published_version' | 'has_unpublished_changes' | 'scheduled_at' | 'last_scheduled_run'
>;

const statusOf = (
  page: Pick<
    Page,
    | 'is_published'
    | 'external_id'
    | 'external_slug'
    | 'published_at'
    | 'publication_updated_at'
    | 'publication_error'
    | 'publication_error_at'
  >,
): BaseStatus => ({
  is_published: page.is_published,
  external_id: page.external_id,
  external_slug: page.external_slug,
  published_at: page.published_at,
  updated_at: page.publication_updated_at,
  last_error: page.publication_error,
  last_error_at: page.publication_error_at,
});

const noProvider = (siteId: number) =>
  `Site ${siteId} has no CMS provider: set one with PUT /sites/${siteId}/provider/fourcms.`;

/** What a first publication requires of its body, by the page's kind. */
function firstPublicationChecks(page: Pick<Page, 'kind' | 'is_published'>, input: PublishInput): void {
  if (page.kind === 'article') {
    if (input.rubric_ids === undefined)
      throw fieldError('rubric_ids', 'An article needs rubric_ids: at least one rubric id from the provider.', {
        code: 'required',
        expected: 'array of integer, at least one',
        hint: 'the ids come from the CMS provider (this service does not list them): e.g. "rubric_ids": [1]',
      });
    if (input.rubric_ids.length === 0)
      throw fieldError('rubric_ids', 'At least one rubric id is needed.', { code: 'too_few', expected: 1 });
  } else {
    const given = ARTICLE_ONLY.filter((key) => input[key] !== undefined);
    if (given.length)
      throw validationError(
        `A ${page.kind} is published with an empty body: the provider manages its metadata.`,
        given.map((path) => ({ path, message: 'Only articles take this field.' })),
      );
  }
  if (page.is_published)
    throw fieldError('root', 'The page is already published: use POST /pages/{id}/publish-update.');
}

/** What a publish-update requires: a page published, and rubrics not emptied. */
function updateChecks(status: Pick<BaseStatus, 'is_published'>, input: PublishInput): void {
  if (!status.is_published)
    throw fieldError('root', 'The page was never published: use POST /pages/{id}/publish first.');
  if (input.rubric_ids !== undefined && input.rubric_ids.length === 0)
    throw fieldError('rubric_ids', 'At least one rubric id is needed.', { code: 'too_few', expected: 1 });
}
