import type { Actor } from '../../shared/actor.js';
import { adoptionOf, type Adoption } from './adoption.js';
import { unprocessable } from '../../shared/errors.js';
import type { PageRequest } from '../../shared/pagination.js';
import { StoredJson } from '../../shared/stored-json.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { Version } from '../blocks/blocks.js';
import type { InstanceBuilder } from './instance-builder.js';
import {
  planEntry,
  summarize,
  versionBefore,
  type InstanceRenderer,
  type InstanceToRender,
  type PlanEntry,
  type PlanHtml,
  type PlannedEntry,
  type PlanRevision,
  type PlanRow,
  type RenderedInstance,
  type UpgradePlan,
  type UpgradePlanRows,
} from './upgrade-plan.js';
import { valuesAfterUpgrade, type UpgradeValuesInput } from './upgrade-values.js';
import type { RevisionChains, ValueMigrator } from './value-migrator.js';
import { chainCoverage } from '../blocks/migrations/index.js';
import type { FieldDefinition } from '../blocks/schema/index.js';

/**
 * The upgrade plan: every instance of the caller's behind the target revision
 * is planned (the summary counts them all, from values and fields: no render),
 * and only the entries of the page asked for are rendered, before and after,
 * in one task on the shared render threads in the caller's turn.
 */
export class UpgradePlanService {
  constructor(
    private readonly deps: {
      blocks: BlocksService;
      rows: UpgradePlanRows;
      instances: InstanceBuilder;
      renderer: InstanceRenderer;
      /** The revisions between an instance's and the target, with their migrations. */
      chains: RevisionChains;
      migrator: ValueMigrator;
    },
  ) {}

  async plan(
    actor: Actor,
    blockId: number,
    query: PageRequest & { to?: Version | undefined },
    signal?: AbortSignal,
  ): Promise<UpgradePlan> {
    const { planned, target, revisions } = await this.planned(actor, blockId, query.to);
    const { rows, entries } = planned;
    const slice = entries.slice(query.offset, query.offset + query.limit);
    const positions = await this.deps.rows.positions(slice.map((e) => e.id));
    const page = slice.map((e) => ({ ...e, position: positions.get(e.id) ?? e.position }));
    const data = await this.withHtml(actor, page, target, revisions, rows, signal);
    return {
      block_id: blockId,
      to: target.version,
      summary: summarize(rows, target.version, entries),
      data,
      total: entries.length,
      limit: query.limit,
      offset: query.offset,
    };
  }

  /** Throws as reading the block would (404, 403) unless the actor may read it. */
  async readable(actor: Actor, blockId: number): Promise<void> {
    await this.deps.blocks.get(actor, blockId);
  }

  /** How many of the caller's instances stand on each revision, and on which pages (counted, no values read). */
  async adoption(actor: Actor, blockId: number): Promise<Adoption> {
    const block = await this.deps.blocks.get(actor, blockId);
    const rows = await this.deps.rows.adoption(blockId, actor.userId);
    return adoptionOf(blockId, block.revision?.version ?? null, rows);
  }

  /** Every entry of the plan, without HTML: what an upgrade everywhere applies. */
  async planned(actor: Actor, blockId: number, to: Version | undefined) {
    const block = await this.deps.blocks.get(actor, blockId);
    const target = await this.target(blockId, block.revision, to);
    const rows = await this.deps.rows.instancesOf(blockId, actor.userId);
    const behind = rows.filter((r) => versionBefore(r.version, target.version));
    const revisions = await this.deps.rows.revisions([...new Set(behind.map((r) => r.revision_id))]);
    const migrations = await this.migrations(actor, blockId, target.version, behind, revisions);
    const upgraded = behind.map((row, i) =>
      valuesAfterUpgrade({
        from: revisions.get(row.revision_id)?.schema_content ?? [],
        to: target.schema_content,
        values: row.placeholder_values.value,
        migration: migrations[i],
      }),
    );
    // Checked as an instance standing on the target revision would be: values and bindings, in one call.
    const snapshot = StoredJson.of(target.schema_content);
    const problems = await this.deps.instances.checkPinnedEach(
      behind.map((row, i) => ({
        instance: { revision_id: target.id, schema_snapshot: snapshot },
        blockType: block.block_type,
        values: upgraded[i]!.values,
        bindings: row.bindings?.value,
        at: '',
      })),
    );
    const entries = behind.map((row, i) => planEntry(row, target.version, upgraded[i]!, problems[i]!));
    return { planned: { rows, entries }, target, revisions, block };
  }

  /**
   * Each instance's values through the migrations of the revisions between its
   * own and the target, when they carry any: one chain read per version the
   * instances stand on, its instances run together (`ValueMigrator`: derives on
   * a render thread, in the actor's turn).
   */
  private migrations(
    actor: Actor,
    blockId: number,
    to: Version,
    behind: PlanRow[],
    revisions: Map<number, PlanRevision>,
  ): Promise<(UpgradeValuesInput['migration'] | undefined)[]> {
    return this.migrationsOf(
      actor,
      blockId,
      to,
      behind.map((row) => ({
        version: row.version,
        fields: () => revisions.get(row.revision_id)?.schema_content ?? [],
        values: row.placeholder_values.value,
      })),
    );
  }

  /**
   * What the migrations between each instance's version and `to` make of its
   * values (`fields`: its revision's, read only for the first instance of each
   * version), undefined where the chain carries none:
   * the plan's, and `upgrade_impact`'s at a block update.
   */
  async migrationsOf(
    actor: Actor,
    blockId: number,
    to: Version,
    instances: Array<{ version: Version; fields: () => FieldDefinition[]; values: Record<string, unknown> }>,
  ): Promise<(UpgradeValuesInput['migration'] | undefined)[]> {
    const out = new Array<UpgradeValuesInput['migration'] | undefined>(instances.length);
    const byVersion = new Map<string, number[]>();
    for (const [i, instance] of instances.entries()) {
      const key = `${instance.version.major}.${instance.version.minor}`;
      byVersion.set(key, [...(byVersion.get(key) ?? []), i]);
    }
    for (const indexes of byVersion.values()) {
      const first = instances[indexes[0]!]!;
      const chain = await this.deps.chains.chain(blockId, first.version, to);
      if (!chain.some((link) => link.migrations.length > 0)) continue;
      const { migratable } = chainCoverage(first.fields(), chain);
      const outcomes = await this.deps.migrator.run(
        indexes.map((i) => instances[i]!.values),
        chain,
        actor.userId,
      );
      for (const [k, i] of indexes.entries()) out[i] = { outcome: outcomes[k]!, migratable };
    }
    return out;
  }

  private async target(blockId: number, current: PlanRevision | null, to: Version | undefined): Promise<PlanRevision> {
    if (to === undefined) {
      if (current) return current;
      throw unprocessable(`Block ${blockId} has no revision yet: there is nothing to upgrade to.`, [
        { path: 'to', message: `Block ${blockId} has no revision yet.`, code: 'not_found' },
      ]);
    }
    const revision = await this.deps.rows.revisionAt(blockId, to);
    if (revision) return revision;
    const at = `${to.major}.${to.minor}`;
    throw unprocessable(`Block ${blockId} has no revision ${at}.`, [
      {
        path: 'to',
        message: `Block ${blockId} has no revision ${at}: see GET /blocks/${blockId}/revisions.`,
        code: 'not_found',
      },
    ]);
  }

  /** Each entry before and after, rendered in one task (two instances an entry), in the actor's turn. */
  private async withHtml(
    actor: Actor,
    entries: PlannedEntry[],
    target: PlanRevision,
    revisions: Map<number, PlanRevision>,
    rows: PlanRow[],
    signal?: AbortSignal,
  ): Promise<PlanEntry[]> {
    if (entries.length === 0) return [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = entries.flatMap((entry): InstanceToRender[] => {
      const row = byId.get(entry.id)!;
      const bindings = row.bindings?.value ?? null;
      return [
        {
          revisionId: row.revision_id,
          fields: revisions.get(row.revision_id)?.schema_content ?? [],
          values: row.placeholder_values,
          bindings,
        },
        { revisionId: target.id, fields: target.schema_content, values: entry.values_after, bindings },
      ];
    });
    const rendered = await this.deps.renderer.renderInstances(actor, items, signal);
    return entries.map((entry, i) => ({ ...entry, html: compared(rendered[2 * i]!, rendered[2 * i + 1]!) }));
  }
}

function compared(before: RenderedInstance, after: RenderedInstance): PlanHtml {
  const errors = [before, after].flatMap((r) => ('error' in r ? [r.error] : []));
  const html = (r: RenderedInstance) => ('error' in r ? null : r.html);
  const assets = (r: RenderedInstance) => ('error' in r ? null : `${r.css}\u0000${r.js}`);
  return {
    before: html(before),
    after: html(after),
    changed: html(before) !== html(after) || errors.length > 0,
    assets_changed: assets(before) !== assets(after),
    errors,
  };
}
