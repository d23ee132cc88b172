import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, conflict, notFound, unprocessable, type FieldError } from '../../shared/errors.js';
import type { Version } from '../blocks/blocks.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { PageHistoryRepository, PageVersion } from './history.js';
import type { InstanceBuilder } from './instance-builder.js';
import { written, type PageBounds, type ProposedInstance } from './page-bounds.js';
import { authorOf, type PagesRepository } from './pages.js';
import type { PlannedEntry } from './upgrade-plan.js';
import type { UpgradePlanService } from './upgrade-plan.service.js';
import type { PageUpgrade, StandingPage, UpgradeSetRecord, UpgradeSetsRepository } from './upgrade-sets.js';

export interface UpgradeSetAnswer extends Omit<UpgradeSetRecord, 'owner_id' | 'id' | 'created_at'> {
  /** Null when nothing was upgraded (no set is kept). */
  id: number | null;
  created_at: string | null;
  upgraded: Array<{ id: number; page_id: number; from: Version; to: Version }>;
  /** Instances behind that the set left where they are, and why (`blocked_by` of the plan; `migration` when not included). */
  skipped: Array<{ id: number; page_id: number; from: Version; blocked_by: string[] }>;
}

export interface UpgradesInput {
  to?: Version | undefined;
  /** Only these pages (each must hold an instance behind `to`). */
  pages?: number[] | undefined;
  /** Take the instances a value migration carries across too. */
  include_migratable?: boolean | undefined;
}

const at = (v: Version) => `${v.major}.${v.minor}`;

/** Pages read and checked against their bounds together: 50 pages of 20 instances hold a few MB. */
const PAGES_CHECKED_TOGETHER = 50;

/** Places an error of one page's write at that page of the request (`pages[k].blocks[2]…`). */
function onPage(error: unknown, k: number): unknown {
  if (!(error instanceof AppError)) return error;
  const errors = error.errors?.length
    ? error.errors.map((e) => ({ ...e, path: `pages[${k}].${e.path}` }))
    : [{ path: `pages[${k}]`, message: error.message }];
  return new AppError(error.kind, error.message, { errors, ...(error.details && { details: error.details }) });
}

/**
 * Upgrade everywhere (`POST /blocks/{id}/upgrades`) and revert
 * (`POST /upgrade-sets/{id}/revert`). The plan decides what moves
 * (`UpgradePlanService.planned`: its `ready` entries, the values it gives
 * them); each page is checked against its bounds as a page write is, before
 * anything is written; then every page is written in one transaction.
 */
export class UpgradeSetsService {
  constructor(
    private readonly deps: {
      plans: UpgradePlanService;
      sets: UpgradeSetsRepository;
      pages: PagesRepository;
      history: PageHistoryRepository;
      instances: InstanceBuilder;
      bounds: PageBounds;
      clock: Clock;
    },
  ) {}

  async apply(actor: Actor, blockId: number, input: UpgradesInput): Promise<UpgradeSetAnswer> {
    const { planned, target, block } = await this.deps.plans.planned(actor, blockId, input.to);
    let entries = planned.entries;
    if (input.pages) {
      const behind = new Set(entries.map((e) => e.page.id));
      const errors: FieldError[] = input.pages.flatMap((id, i) =>
        behind.has(id)
          ? []
          : [
              {
                path: `pages[${i}]`,
                message: `Page ${id} holds none of your instances of block ${blockId} behind ${at(target.version)}.`,
                code: 'not_found' as const,
              },
            ],
      );
      if (errors.length) throw unprocessable('Some pages have nothing to upgrade: see errors[].', errors);
      const listed = new Set(input.pages);
      entries = entries.filter((e) => listed.has(e.page.id));
    }
    // A major carried by migrations goes only when asked for; a minor goes with its migrations, if any.
    const goes = (e: PlannedEntry) => e.status === 'ready' && (e.bump === 'minor' || input.include_migratable === true);
    const skipped = entries
      .filter((e) => !goes(e))
      .map((e) => ({
        id: e.id,
        page_id: e.page.id,
        from: e.from,
        blocked_by: e.status === 'ready' ? ['migration'] : e.blocked_by,
      }));
    const byPage = new Map<number, PlannedEntry[]>();
    for (const e of entries.filter(goes)) byPage.set(e.page.id, [...(byPage.get(e.page.id) ?? []), e]);

    const upgrades: PageUpgrade[] = [];
    const pages = [...byPage];
    for (let from = 0; from < pages.length; from += PAGES_CHECKED_TOGETHER)
      upgrades.push(
        ...(await this.pageUpgrades(actor, pages.slice(from, from + PAGES_CHECKED_TOGETHER), from, { block, target })),
      );
    const upgraded = [...byPage.values()]
      .flat()
      .map((e) => ({ id: e.id, page_id: e.page.id, from: e.from, to: target.version }));
    if (upgrades.length === 0)
      return {
        id: null,
        block_id: blockId,
        to: target.version,
        created_at: null,
        reverted_at: null,
        pages: [],
        upgraded,
        skipped,
      };
    const { owner_id: _owner, ...set } = await this.deps.sets.apply({
      ownerId: actor.userId,
      blockId,
      to: target.version,
      pages: upgrades,
      now: this.deps.clock.now().toISOString(),
      by: authorOf(actor),
    });
    return { ...set, upgraded, skipped };
  }

  /**
   * Some pages' re-pins (`from`: the first one's place in the set), each page
   * checked within its bounds as they would leave it: the pages read together,
   * their HTML rendered where it may not fit.
   */
  private async pageUpgrades(
    actor: Actor,
    pages: Array<[pageId: number, ready: PlannedEntry[]]>,
    from: number,
    { block, target }: Pick<Awaited<ReturnType<UpgradePlanService['planned']>>, 'block' | 'target'>,
  ): Promise<PageUpgrade[]> {
    const standing = await this.deps.sets.standing(pages.map(([pageId]) => pageId));
    const upgrades: PageUpgrade[] = [];
    const proposed: Array<{ fields: StandingPage['fields']; instances: ProposedInstance[] }> = [];
    for (const [k, [pageId, ready]] of pages.entries()) {
      const page = standing.get(pageId);
      const existing = new Map(page?.instances.map((i) => [i.id, i]));
      const changes = ready.map((entry) => {
        const instance = existing.get(entry.id);
        if (!instance) throw onPage(conflict(`Page ${pageId} changed since the plan was read: try again.`), from + k);
        const pinned = this.deps.instances.pin(block, target, {
          placeholder_values: entry.values_after,
          ...(instance.bindings ? { bindings: instance.bindings } : {}),
        });
        return {
          pageBlockId: entry.id,
          expectRevisionId: instance.revision_id,
          instance: { ...pinned, parent_page_block_id: instance.parent_page_block_id },
        };
      });
      const byId = new Map(changes.map((c) => [c.pageBlockId, c.instance]));
      const instances = [...existing.values()].map((instance, i) => {
        const change = byId.get(instance.id);
        return change ? written(change, instance.id, `blocks[${i}]`) : instance;
      });
      proposed.push({ fields: page!.fields, instances });
      upgrades.push({ pageId, changes });
    }
    const refused = await this.deps.bounds.firstRefused(actor, proposed);
    if (refused) throw onPage(refused.error, from + refused.index);
    return upgrades;
  }

  /** The caller's sets of a block, newest first (a block they may read). */
  async list(actor: Actor, blockId: number, page: PageRequest): Promise<Page<Omit<UpgradeSetRecord, 'owner_id'>>> {
    await this.deps.plans.readable(actor, blockId);
    const { sets, total } = await this.deps.sets.list(actor.userId, blockId, page);
    return pageOf(
      sets.map(({ owner_id: _owner, ...set }) => set),
      total,
      page,
    );
  }

  /** Each page of the set back to its version before it; a page changed since is a 409 at `pages[i]` unless `force`. */
  async revert(actor: Actor, setId: number, { force = false }: { force?: boolean }): Promise<UpgradeSetRecord> {
    const set = await this.deps.sets.find(setId);
    if (!set || set.owner_id !== actor.userId) throw notFound(`Upgrade set ${setId} not found.`);
    if (set.reverted_at) throw conflict(`Upgrade set ${setId} was reverted already (${set.reverted_at}).`);
    const errors: FieldError[] = [];
    const versions: PageVersion[] = [];
    for (const [i, p] of set.pages.entries()) {
      const path = `pages[${i}]`;
      const page = await this.deps.pages.find(p.page_id);
      if (page && page.version !== p.version_after && !force)
        errors.push({
          path,
          message: `Page ${p.page_id} changed since the set (version ${p.version_after}, now ${page.version}): send force to revert it anyway.`,
          code: 'conflict',
        });
      const version = await this.deps.history.find(p.page_id, p.version_before);
      if (!version)
        errors.push({
          path,
          message: `Version ${p.version_before} of page ${p.page_id} is no longer kept.`,
          code: 'conflict',
        });
      else versions.push(version);
    }
    if (errors.length)
      throw conflict(`Upgrade set ${setId} cannot be reverted: see errors[]. Nothing was changed.`, errors);
    return this.deps.sets.revert({ set, versions, now: this.deps.clock.now().toISOString(), by: authorOf(actor) });
  }
}
