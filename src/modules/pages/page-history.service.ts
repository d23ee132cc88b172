import type { Actor } from '../../shared/actor.js';
import { NO_OUTBOX, type Outbox } from '../webhooks/webhooks.js';
import type { Clock } from '../../shared/clock.js';
import { conflict, notFound, type ExpectedVersions, type FieldError } from '../../shared/errors.js';
import { pageOf, type Page as ListPage, type PageRequest } from '../../shared/pagination.js';
import { StoredJson } from '../../shared/stored-json.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { PageRenderingService } from '../publishing/page-rendering.service.js';
import type { RenderableInstance, RenderablePage } from '../publishing/publishing.js';
import type { PageHistoryRepository, PageVersion, VersionDiff, VersionEntry } from './history.js';
import type { PageBounds, ProposedInstance } from './page-bounds.js';
import { authorOf, expectingVersion, type WrittenPage } from './pages.js';
import type { PagesService } from './pages.service.js';
import { diffVersions } from './version-diff.js';

const missingVersion = { path: 'number', message: 'no such version (it may have been pruned: PAGE_HISTORY_LIMIT)' };

/**
 * A page's history: its versions listed, read, compared, rendered with the
 * revisions they pinned, and restored. Only the page's owner sees it.
 */
export class PageHistoryService {
  constructor(
    private readonly deps: {
      history: PageHistoryRepository;
      pages: PagesService;
      blocks: BlocksService;
      rendering: PageRenderingService;
      bounds: PageBounds;
      clock: Clock;
      /** page.updated with a restore. */
      outbox?: Outbox;
    },
  ) {}

  async list(actor: Actor, pageId: number, page: PageRequest): Promise<ListPage<VersionEntry>> {
    await this.deps.pages.get(actor, pageId);
    const { rows, total } = await this.deps.history.list(pageId, page);
    return pageOf(rows, total, page);
  }

  /** Version `number` of the actor's page; the page's current one when `number` is undefined. */
  async get(actor: Actor, pageId: number, number?: number): Promise<PageVersion & { current: number }> {
    const page = await this.deps.pages.get(actor, pageId);
    const wanted = number ?? page.version;
    const version = await this.deps.history.find(pageId, wanted);
    if (!version) throw notFound(`Version ${wanted} of page ${pageId} not found.`, [missingVersion]);
    return { ...version, current: page.version };
  }

  /** From version `from` to version `to` (the current one when undefined). */
  async diff(actor: Actor, pageId: number, from: number, to?: number): Promise<VersionDiff> {
    const page = await this.deps.pages.get(actor, pageId);
    const read = async (number: number) => {
      const version = await this.deps.history.find(pageId, number, { library: false });
      if (!version) throw notFound(`Version ${number} of page ${pageId} not found.`, [missingVersion]);
      return version;
    };
    const [older, newer] = await Promise.all([read(from), read(to ?? page.version)]);
    return diffVersions(older, newer);
  }

  /**
   * The version rendered with the revisions it pinned and today's stubs: the
   * bytes of the page's preview when it was current. A version whose block was
   * deleted since cannot be rendered: 409 at `blocks[i]`.
   */
  async preview(actor: Actor, pageId: number, number: number): Promise<Buffer> {
    const version = await this.get(actor, pageId, number);
    const revisions = await this.deps.history.revisions(version.instances.map((i) => i.revision_id));
    const errors: FieldError[] = version.instances.flatMap((instance, i) =>
      revisions.has(instance.revision_id) && instance.block
        ? []
        : [
            {
              path: `blocks[${i}]`,
              message: `Block ${instance.block_id} was deleted since version ${number}: it cannot be rendered.`,
              code: 'conflict' as const,
            },
          ],
    );
    if (errors.length) throw conflict(`Version ${number} cannot be rendered: see errors[].`, errors);
    const page = await this.deps.pages.get(actor, pageId);
    const source: RenderablePage = {
      page: { ...page, ...version.fields },
      instances: version.instances.map((instance): RenderableInstance => {
        const revision = revisions.get(instance.revision_id)!;
        return {
          id: instance.id,
          parent_page_block_id: instance.parent_page_block_id,
          block_id: instance.block_id,
          block_type: instance.block!.block_type,
          kind: instance.block!.kind,
          version: instance.version,
          placeholder_values: StoredJson.fromText(instance.placeholder_values_json),
          bindings:
            instance.bindings_json === null
              ? null
              : (JSON.parse(instance.bindings_json) as RenderableInstance['bindings']),
          schema_snapshot: JSON.parse(revision.schema_content) as unknown[],
          revision: { id: revision.id, template: revision.template, css: revision.css, js: revision.js },
        };
      }),
    };
    return this.deps.rendering.previewOf(actor, source);
  }

  /**
   * A new version equal to version `number`, pins as they were. With
   * `expected`, only while the page is at one of those versions (412
   * `version_conflict`, said before anything else is checked, as every page
   * write says it). Every block it pinned must still exist and be visible to
   * the actor; otherwise 409 with `errors[]` at `blocks[i]` and nothing
   * changes. A restore is a write like any other: the page it makes must be
   * within today's bounds (its JSON limit may have been lowered since, its
   * HTML bound too), a 422 at the place in version n (`blocks[i]...`).
   */
  async restore(actor: Actor, pageId: number, number: number, expected?: ExpectedVersions): Promise<WrittenPage> {
    expectingVersion(await this.deps.pages.get(actor, pageId), expected);
    const version = await this.get(actor, pageId, number);
    const ids = [...new Set(version.instances.map((i) => i.block_id))];
    const visible = await this.deps.blocks.readable(actor, ids);
    const errors: FieldError[] = version.instances.flatMap((instance, i) => {
      if (!instance.block || !instance.revision_exists)
        return [
          {
            path: `blocks[${i}]`,
            message: `Block ${instance.block_id} was deleted since version ${number}.`,
            code: 'conflict' as const,
          },
        ];
      if (!visible.has(instance.block_id))
        return [
          {
            path: `blocks[${i}]`,
            message: `Block ${instance.block_id} is no longer visible to you.`,
            code: 'conflict' as const,
          },
        ];
      return [];
    });
    if (errors.length)
      throw conflict(`Version ${number} cannot be restored: see errors[]. Nothing was changed.`, errors);
    await this.checkBounds(actor, version);
    return (this.deps.outbox ?? NO_OUTBOX).within(
      () =>
        this.deps.history.restore({ version, by: authorOf(actor), now: this.deps.clock.now().toISOString(), expected }),
      () => [{ pageId, type: 'page.updated', data: { change: 'version.restored', restored_version: number } }],
    );
  }

  /** The page as the restore would leave it, each instance at its place in the version. */
  private async checkBounds(actor: Actor, version: PageVersion): Promise<void> {
    const revisions = await this.deps.history.revisions([...new Set(version.instances.map((i) => i.revision_id))]);
    const instances = version.instances.map((instance, i): ProposedInstance => ({
      id: instance.id,
      block_id: instance.block_id,
      revision_id: instance.revision_id,
      // Checked above: every pinned revision exists (one deleted meanwhile is the write's 409).
      schema_snapshot: StoredJson.fromText<unknown[]>(revisions.get(instance.revision_id)?.schema_content ?? '[]'),
      placeholder_values: JSON.parse(instance.placeholder_values_json) as Record<string, unknown>,
      bindings:
        instance.bindings_json === null ? null : (JSON.parse(instance.bindings_json) as ProposedInstance['bindings']),
      parent_page_block_id: instance.parent_page_block_id,
      at: `blocks[${i}]`,
    }));
    await this.deps.bounds.check(actor, version.fields, instances);
  }
}
