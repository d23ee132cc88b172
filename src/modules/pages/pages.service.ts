import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, fieldError, validationError, type ExpectedVersions } from '../../shared/errors.js';
import { pageOf, type Page as ListPage, type PageRequest } from '../../shared/pagination.js';
import { searchTerms } from '../blocks/search-terms.js';
import { SLUG_PATTERN } from '../catalog/slug.js';
import type { SitesService } from '../sites/sites.service.js';
import { pageEvent } from '../webhooks/events.js';
import { NO_OUTBOX, type Outbox } from '../webhooks/webhooks.js';
import type { InstanceBuilder, InstanceInput } from './instance-builder.js';
import { written, type PageBounds } from './page-bounds.js';
import {
  authorOf,
  emptyPageFields,
  expectingVersion,
  folderNotInSite,
  META_FIELDS,
  ownPage,
  type NewInstance,
  type Page,
  type PageBlock,
  type PageChange,
  type PageFields,
  type PageReferences,
  type PagesRepository,
  type PageView,
  type WrittenPage,
} from './pages.js';

export interface PageInput {
  name?: string;
  site_id?: number | null;
  kind?: string;
  slug?: string | null;
  folder_id?: number | null;
  meta_title?: string | null;
  meta_description?: string | null;
  meta_keywords?: string | null;
  meta_robots?: string | null;
  blocks?: InstanceInput[];
}

export type PageWithBlocks = Page & { blocks: PageBlock[] | null };

export class PagesService {
  constructor(
    private readonly deps: {
      pages: PagesRepository;
      sites: SitesService;
      references: PageReferences;
      instances: InstanceBuilder;
      bounds: PageBounds;
      clock: Clock;
      /** page.created, page.updated and page.deleted, recorded with the write. */
      outbox?: Outbox;
    },
  ) {}

  private get outbox(): Outbox {
    return this.deps.outbox ?? NO_OUTBOX;
  }

  async list(
    actor: Actor,
    query: PageRequest & { hasOutdated?: boolean; hasUnpublishedChanges?: boolean },
  ): Promise<ListPage<Page>> {
    const { rows, total } = await this.deps.pages.list({ ...query, ownerId: actor.userId });
    return pageOf(rows, total, query);
  }

  async search(actor: Actor, query: PageRequest & { q: string }): Promise<ListPage<Page>> {
    const terms = searchTerms(query.q);
    if (terms.length === 0) throw fieldError('q', 'The query has no letters or digits to search for.');
    const { rows, total } = await this.deps.pages.search({
      ownerId: actor.userId,
      terms,
      limit: query.limit,
      offset: query.offset,
    });
    return pageOf(rows, total, query);
  }

  /** A page of the actor. Another user's page is "not found": it is invisible to this key. */
  async get(actor: Actor, id: number, withBlocks = false): Promise<PageWithBlocks> {
    const page = ownPage(actor, id, await this.deps.pages.find(id));
    return { ...page, blocks: withBlocks ? await this.deps.pages.blocks(id) : null };
  }

  /** A page of the actor as its answers show it (see PageView); another user's page is "not found". */
  async view(actor: Actor, id: number, withBlocks: boolean): Promise<PageView> {
    return ownPage(actor, id, await this.deps.pages.view(id, withBlocks));
  }

  async create(actor: Actor, input: PageInput & { name: string; site_id: number }): Promise<WrittenPage> {
    const kind = input.kind ?? 'article';
    await this.checkKind(kind);
    const fields = await this.fields(actor, kind, input, emptyPageFields(input.name));
    const instances = await this.deps.instances.build(actor, input.blocks ?? [], wholeSet);
    await this.checkBounds(actor, fields, instances);
    return this.outbox.withinFor(
      actor.userId,
      () =>
        this.deps.pages.create({
          ownerId: actor.userId,
          kind,
          fields,
          instances,
          now: this.now(),
          by: authorOf(actor),
        }),
      (page) => [pageEvent('page.created', page)],
    );
  }

  /** With `blocks`: the whole set is replaced, every instance pinned anew. Without: metadata only. */
  /** With `expected`, only while the page is at one of those versions (412 `version_conflict` otherwise). */
  async update(actor: Actor, id: number, input: PageInput, expected?: ExpectedVersions): Promise<WrittenPage> {
    const page = expectingVersion(await this.get(actor, id), expected);
    if (input.kind !== undefined && input.kind !== page.kind)
      throw fieldError('kind', 'The kind of a page is fixed at creation.');
    const { site_id, folder_id, ...rest } = await this.fields(actor, page.kind, input, page);
    const fields: PageChange = {
      ...rest,
      ...(input.site_id !== undefined && { site_id }),
      ...(input.folder_id !== undefined && { folder_id }),
    };
    const instances = input.blocks ? await this.deps.instances.build(actor, input.blocks, wholeSet) : undefined;
    // Without blocks the instances stay, and the fields alone are a few KB at most (their schema's lengths).
    if (instances) await this.checkBounds(actor, { ...page, ...fields }, instances);
    return this.outbox.withinFor(
      page.owner_id,
      () =>
        this.deps.pages.update({
          id,
          fields,
          ...(instances ? { instances } : {}),
          now: this.now(),
          by: authorOf(actor),
          expected,
        }),
      (updated) => [pageEvent('page.updated', updated)],
    );
  }

  async delete(actor: Actor, id: number, expected?: ExpectedVersions): Promise<void> {
    const page = expectingVersion(await this.get(actor, id), expected);
    await this.outbox.withinFor(
      page.owner_id,
      () => this.deps.pages.delete(id, expected),
      () => [pageEvent('page.deleted', page)],
    );
  }

  /** The metadata after applying `input` over `base`, checked against the site, kind and folder rules. */
  private async fields(actor: Actor, kind: string, input: PageInput, base: PageFields): Promise<PageFields> {
    const next: PageFields = {
      name: input.name ?? base.name,
      site_id: input.site_id !== undefined ? input.site_id : base.site_id,
      folder_id: input.folder_id !== undefined ? input.folder_id : base.folder_id,
      slug: input.slug !== undefined ? input.slug : base.slug,
      meta_title: base.meta_title,
      meta_description: base.meta_description,
      meta_keywords: base.meta_keywords,
      meta_robots: base.meta_robots,
    };
    for (const key of META_FIELDS) if (input[key] !== undefined) next[key] = input[key] ?? null;
    if (next.slug !== null && kind !== 'article')
      throw fieldError('slug', `A slug is only for pages of kind article (this one is ${kind}).`);
    if (next.slug !== null && !SLUG_PATTERN.test(next.slug))
      throw fieldError('slug', 'A slug is lower-case letters and digits separated by hyphens.');
    if (input.site_id !== undefined && input.site_id !== null) await this.checkSite(actor, input.site_id);
    if (next.folder_id !== null && (input.folder_id !== undefined || input.site_id !== undefined)) {
      const folder = await this.deps.references.folder(next.folder_id);
      if (!folder || folder.owner_id !== actor.userId || folder.site_id !== next.site_id)
        throw folderNotInSite(next.folder_id, next.site_id);
    }
    return next;
  }

  /** The page's JSON and HTML as a whole-set write leaves them, each within its bound (`PageBounds`). */
  private checkBounds(actor: Actor, fields: PageChange, instances: NewInstance[]): Promise<void> {
    return this.deps.bounds.check(
      actor,
      fields,
      instances.map((instance, i) => written(instance, -(i + 1), `blocks[${i}]`)),
    );
  }

  private async checkSite(actor: Actor, siteId: number) {
    try {
      await this.deps.sites.get(actor, siteId);
    } catch (error) {
      if (error instanceof AppError)
        throw new AppError(error.kind, error.message, { errors: [{ path: 'site_id', message: error.message }] });
      throw error;
    }
  }

  private async checkKind(kind: string) {
    if (await this.deps.references.hasPageKind(kind)) return;
    // The list only for the message: every write asks, and one kind is one indexed row.
    const kinds = await this.deps.references.pageKinds();
    throw validationError('Unknown page kind.', [
      { path: 'kind', message: `Unknown kind "${kind}": use one of ${kinds.join(', ')} (GET /page-types).` },
    ]);
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }
}

// Whole-set writes (POST /pages, PUT with blocks) have no instance to nest under yet.
const wholeSet = { pathOf: (i: number) => `blocks[${i}]`, existing: new Map<number, PageBlock>() };
