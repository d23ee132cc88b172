import type { BlockType as LibraryBlockType, Version } from '../blocks/blocks.js';
import type { Binding, Page } from '../pages/pages.js';
import type { ImageSpots, RenderDefaults } from '../blocks/schema/index.js';
import { StoredJson } from '../../shared/stored-json.js';

export interface PublicationStatus {
  is_published: boolean;
  external_id: string | null;
  external_slug: string | null;
  published_at: string | null;
  updated_at: string | null;
  /** The provider's message from the last failed publish or publish-update; null once one succeeds. */
  last_error: string | null;
  last_error_at: string | null;
  /** The latest version of the page that went to the provider; null before the first publication. */
  published_version: number | null;
  /** Published, and the page's current version is not the one the provider has. */
  has_unpublished_changes: boolean;
  /** When the page's scheduled publication will run; null when none is pending. */
  scheduled_at: string | null;
  /** The outcome of the last scheduled publication that ran; null before any. */
  last_scheduled_run: ScheduledRun | null;
}

/** Where a page's versions stand against its publication. */
export interface VersionState {
  /** The page's current version. */
  version: number;
  /** The latest version marked published in its history; null if none. */
  published_version: number | null;
}

export interface ProviderRecord {
  type: string | null;
  base_url: string | null;
  token_set: boolean;
  updated_at: string | null;
}

export interface StoredProvider {
  type: string;
  base_url: string;
  token: string;
}

/** What a rendering needs of an instance's pinned revision. */
export interface RevisionAssets {
  id: number;
  template: string;
  css: string;
  js: string;
}

/** Port: a page's publication state and its site's provider settings. */
export interface PublicationRepository {
  status(
    pageId: number,
  ): Promise<
    | Omit<PublicationStatus, 'published_version' | 'has_unpublished_changes' | 'scheduled_at' | 'last_scheduled_run'>
    | undefined
  >;
  /** The page's current version and the latest one that went to the provider; undefined when there is no such page. */
  versionState(pageId: number): Promise<VersionState | undefined>;
  /**
   * Claims the page for a publication when it is in `expected` state and not
   * claimed by a live attempt (older than `staleBefore` claims are dead).
   * False when another attempt holds it or the state differs.
   */
  claim(input: { pageId: number; expectPublished: boolean; now: string; staleBefore: string }): Promise<boolean>;
  release(pageId: number): Promise<void>;
  /** `version`: the page's version that was rendered and sent, marked published in its history. */
  markPublished(input: {
    pageId: number;
    version: number;
    externalId: string;
    externalSlug: string | null;
    now: string;
  }): Promise<void>;
  markUpdated(input: { pageId: number; version: number; externalSlug: string | null; now: string }): Promise<void>;
  /** Keeps the provider's message of a failed attempt and releases the claim; the publication state stays. */
  markFailed(input: { pageId: number; message: string; now: string }): Promise<void>;
  provider(siteId: number): Promise<StoredProvider | undefined>;
  providerRecord(siteId: number): Promise<ProviderRecord>;
  saveProvider(input: {
    siteId: number;
    type: string;
    baseUrl: string;
    token: string;
    now: string;
  }): Promise<ProviderRecord>;
}

/** What a publication and a preview need of the page row. */
export type RenderablePageRow = Pick<
  Page,
  | 'id'
  | 'owner_id'
  | 'kind'
  | 'name'
  | 'version'
  | 'site_id'
  | 'slug'
  | 'meta_title'
  | 'meta_description'
  | 'is_published'
  | 'external_id'
  | 'external_slug'
  | 'published_at'
  | 'publication_updated_at'
  | 'publication_error'
  | 'publication_error_at'
>;

/** One instance of a page with its pinned revision, as rendering needs it. */
export interface RenderableInstance {
  id: number;
  parent_page_block_id: number | null;
  block_id: number;
  block_type: LibraryBlockType;
  /** `layout` instances hold children. */
  kind: 'content' | 'layout';
  version: Version;
  /** As stored: its text is the render cache's key and what a render thread is sent. */
  placeholder_values: StoredJson<Record<string, unknown>>;
  bindings: Record<string, Binding> | null;
  /** The field definitions of the pinned revision. */
  schema_snapshot: unknown[];
  revision: RevisionAssets;
}

export interface RenderablePage {
  page: RenderablePageRow;
  /** In page order. */
  instances: RenderableInstance[];
}

/** Port: what rendering reads. Publishing and previews share it. */
export interface RenderingRepository {
  /** The page, its instances, their revisions and block types, in one batched read; undefined when no such page. */
  page(pageId: number): Promise<RenderablePage | undefined>;
  /** The stub of each source's result type. */
  stubs(sourceIds: string[]): Promise<Map<string, unknown>>;
  /** Revisions' assets with their block's type, by revision id (a revision gone is absent). */
  revisions(ids: number[]): Promise<Map<number, RevisionAssets & { block_type: LibraryBlockType }>>;
}

/** One block instance as the provider receives it, so it can render live data itself. */
export interface PublishedBlock {
  /** The page block (instance) id. */
  id: number;
  block_id: number;
  version: { major: number; minor: number };
  /** The LiquidJS template of the pinned revision. */
  template: string;
  placeholder_values: Record<string, unknown>;
  bindings: Record<string, unknown> | null;
}

/** The document sent on a first publication. */
export interface PublishDocument {
  kind: string;
  title: string;
  slug?: string;
  rubric_ids?: number[];
  meta_title?: string;
  meta_description?: string;
  preview_text?: string;
  /** The page rendered as in a preview (stubs in bound slots). */
  html: string;
  css: string;
  js: string;
  blocks: PublishedBlock[];
}

/** An update: the fields being changed, plus the regenerated output, always. */
export type PublishUpdate = Partial<PublishDocument> & Pick<PublishDocument, 'html' | 'css' | 'js' | 'blocks'>;

/** What the provider answers: its own id (normalized to a string) and the slug it settled on. */
export interface PublishedRef {
  id: string;
  slug: string | null;
}

/** A site's provider settings as stored; the token never leaves the service. */
export interface ProviderSettings {
  base_url: string;
  token: string;
}

/**
 * Port: a CMS provider. Every failure (refused URL, time-out, unreachable
 * host, non-2xx answer, unreadable answer) rejects with `AppError` of kind
 * `bad_gateway` whose message carries the provider's own message when it sent
 * one, never the token.
 */
export interface CmsProvider {
  publish(doc: PublishDocument): Promise<PublishedRef>;
  update(id: string, doc: PublishUpdate): Promise<PublishedRef>;
  /** The connection check: who the token belongs to; a 502 AppError saying what is wrong. */
  check(): Promise<ProviderAccount>;
}

/** The account a provider's token belongs to, as its connection check answers. */
export interface ProviderAccount {
  id: string;
  name: string | null;
}

/** A connection check's outcome: it informs, it never refuses settings. */
export type ProviderCheck = { ok: true } | { ok: false; error: string };

/** Port: the adapter for a stored provider type (an unknown type is a plain Error, a 500). */
export type CmsProviders = (type: string, settings: ProviderSettings) => CmsProvider;

/** Port: the outbound guard at settings time; rejects with a validation error on `base_url`. */
export type OutboundGuard = (url: string) => Promise<void>;

export type BlockType = 'schema' | 'markdown';

/** An instance's values as the renderer takes them. */
export type RenderValues = Record<string, unknown> | StoredJson<Record<string, unknown>>;

/** The values themselves, parsed from their text if they came as such. */
export const valuesOf = (values: RenderValues): Record<string, unknown> =>
  values instanceof StoredJson ? values.value : values;

/** One instance of a page as the renderer takes it. */
export interface PageBlockInput {
  /** The page block (instance) id, named in errors. */
  id: number;
  parentId: number | null;
  /** Cache key of the parsed template: a revision never changes, so neither does its template. */
  revisionId: number;
  template: string;
  css: string;
  js: string;
  /** With their stored text (an instance read from the database), or a value alone (a draft's, a block preview's). */
  values: RenderValues;
  slots: Record<string, unknown>;
  /** Names of values holding GFM; default `['_markdown']`. */
  markdownFields?: string[];
  blockType: BlockType;
  /** Names of top-level values of type `richtext`. */
  richtextFields: string[];
  /**
   * What the template sees for fields the values leave out: their defaults in
   * this revision (`renderDefaults`). Decided by the revision, like its
   * template: kept with the parsed template, and keyed by the revision alone.
   */
  defaults?: RenderDefaults | undefined;
  /** Where its image fields are (`imageSpots`): decided by the revision, and kept with its template as its defaults are. */
  images?: ImageSpots | undefined;
}

export interface RenderedPage {
  html: string;
  css: string;
  js: string;
}

/**
 * Whom a render is for, and why: a renderer shared by everyone shares its
 * threads fairly between users, and may refuse a user's preview past their
 * share (a `rate_limited` AppError with `retry_after`), never a publication.
 */
export interface RenderFor {
  userId: number;
  /** `write`: a page's size checked before a write; waits its turn like a preview, and is never refused. */
  purpose: 'preview' | 'publication' | 'write';
  /**
   * Aborted when the requester goes away: a render still waiting for a thread
   * then gives its place back and never runs (a render already running ends).
   */
  signal?: AbortSignal;
  /** Each block between comments naming its instance (`markBlock`): a preview for an editor that picks blocks on it. */
  marks?: boolean;
}

/**
 * Port: preview documents kept across requests (the bytes sent), by a key
 * naming everything that decides them; none for inputs that must be rendered
 * every time. A kept document is answered without a render.
 */
export interface KeptDocuments {
  keyOf(blocks: PageBlockInput[], of: { title: string; marks: boolean }): string | undefined;
  get(key: string): Buffer | undefined;
  set(key: string, bytes: Buffer): void;
}

/** Port: templates to HTML. A template that cannot be rendered rejects with an `unprocessable` AppError. */
export interface PageRenderer {
  /** The blocks in order, each child inside its parent's `children`; CSS and JS once per revision. */
  renderPage(blocks: PageBlockInput[], renderFor?: RenderFor): Promise<RenderedPage>;
  /**
   * Each block's own HTML (no wrapper, no page around it), rendered as one
   * page's blocks: one turn, one budget. A failure rejects as `renderPage`'s.
   */
  renderEach(blocks: PageBlockInput[], renderFor?: RenderFor): Promise<string[]>;
  /** One block outside any page (a block preview): a failure names block `blockId` and its `template`. */
  renderAlone(block: PageBlockInput, blockId: number, renderFor?: RenderFor): Promise<RenderedPage>;
  /**
   * A rendered document as a short text outline (headings, list items, images,
   * links), made off the caller's thread where the renderer has threads:
   * parsing a page of megabytes held the event loop.
   */
  outline(html: string, renderFor?: RenderFor): Promise<string>;
  /** A full HTML document around a rendered page. */
  previewDocument(page: RenderedPage & { title: string }): string;
  /**
   * True when the page's HTML is surely within the renderer's bound, said
   * from its templates and values without rendering; false when only a render
   * can say (a renderer without such a bound always says false).
   */
  surelyFits?(blocks: PageBlockInput[]): boolean;
}

/**
 * The place (index in the page's order) of a render refused because the
 * page's HTML went over its bound there (`output_limit`); undefined for any
 * other failure.
 */
export function overflowIndex(error: unknown): number | undefined {
  const failure = error as { reason?: unknown; index?: unknown } | null;
  return failure?.reason === 'output_limit' && typeof failure.index === 'number' ? failure.index : undefined;
}

/** A publish or publish-update body (a schedule's too). */
export interface PublishInput {
  rubric_ids?: number[];
  meta_title?: string;
  meta_description?: string;
  slug?: string;
  preview_text?: string;
  name?: string;
}

/** The outcome of a page's last scheduled publication, as its status shows it. */
export interface ScheduledRun {
  outcome: 'published' | 'failed';
  /** When it ended. */
  at: string;
  /** Tries it took (1 when the first went through or failed for good). */
  attempts: number;
  /** The provider's message (or why it could not be sent) when it failed; null when published. */
  error: string | null;
}

export interface PageSchedule {
  pageId: number;
  userId: number;
  publishAt: string;
  input: PublishInput;
  /** The job that will publish; null when nothing is pending. */
  jobId: string | null;
  lastRun: ScheduledRun | null;
  /** Tries so far of the pending job, with the last one's message. */
  attempts: number;
  lastError: string | null;
}

export interface ScheduleRepository {
  get(pageId: number): Promise<PageSchedule | undefined>;
  /** Pending from now: the job named, the run before forgotten. */
  put(schedule: {
    pageId: number;
    userId: number;
    publishAt: string;
    input: PublishInput;
    jobId: string;
    now: string;
  }): Promise<void>;
  /** Nothing pending any more (the last run's outcome stays). */
  clear(pageId: number, jobId: string): Promise<void>;
  /** A try of `jobId` that failed and will be tried again. */
  recordTry(pageId: number, jobId: string, attempts: number, error: string): Promise<void>;
  /** The run of `jobId` ended: nothing pending, its outcome kept. */
  recordRun(pageId: number, jobId: string, run: ScheduledRun): Promise<void>;
}
