/**
 * The upgrade plan of a block (`GET /blocks/{id}/upgrade-plan`): for each of
 * the caller's instances behind a target revision, what an upgrade would do to
 * it (fields added with the value they take, values lost, values and bindings
 * that would not validate, its HTML before and after), and a summary. Types,
 * the port and the pure rules; `upgrade-plan.service.ts` reads and renders.
 */
import type { Actor } from '../../shared/actor.js';
import type { ErrorCode, FieldError } from '../../shared/errors.js';
import type { StoredJson } from '../../shared/stored-json.js';
import type { Version } from '../blocks/blocks.js';
import type { FieldDefinition } from '../blocks/schema/index.js';
import type { AdoptionRow } from './adoption.js';
import type { Binding } from './pages.js';
import type { AddedField, LostValue, MigratedValue, UpgradedValues } from './upgrade-values.js';

/** One instance of the block on one of the caller's pages, as stored. */
export interface PlanRow {
  id: number;
  page_id: number;
  page_name: string;
  /** Its `order_index`: the page's order (its place from 0 is read for a page of entries: `positions`). */
  position: number;
  revision_id: number;
  version: Version;
  placeholder_values: StoredJson<Record<string, unknown>>;
  bindings: StoredJson<Record<string, Binding>> | null;
}

export interface PlanRevision {
  id: number;
  version: Version;
  schema_content: FieldDefinition[];
}

/** Port: the caller's instances of a block, and the fields of the revisions they stand on. */
export interface UpgradePlanRows {
  /** In page order: by page id, then place. */
  instancesOf(blockId: number, userId: number): Promise<PlanRow[]>;
  /** Their count by revision and page, without their values (the adoption view). */
  adoption(blockId: number, userId: number): Promise<AdoptionRow[]>;
  revisions(ids: number[]): Promise<Map<number, PlanRevision>>;
  /** Each instance's place in its page's order, from 0 (`blocks[i]` of the page). */
  positions(ids: number[]): Promise<Map<number, number>>;
  /** The block's revision at this version, if it has one. */
  revisionAt(blockId: number, version: Version): Promise<PlanRevision | undefined>;
}

/** One instance to render with stub data: a revision of the block, values and bindings. */
export interface InstanceToRender {
  revisionId: number;
  fields: FieldDefinition[];
  values: Record<string, unknown> | StoredJson<Record<string, unknown>>;
  bindings: Record<string, Binding> | null;
}

/** Its HTML (without the page around it), or why it could not be rendered. */
export type RenderedInstance = { html: string; css: string; js: string } | { error: string };

/** Port: instances rendered on the shared render threads, in the actor's turn (`PageRenderingService`). */
export interface InstanceRenderer {
  renderInstances(actor: Actor, items: InstanceToRender[], signal?: AbortSignal): Promise<RenderedInstance[]>;
}

/** Why an instance cannot be upgraded as the plan stands. */
export type Blocker = 'major' | 'values' | 'bindings';

export interface PlanProblem {
  path: string;
  code: ErrorCode | 'invalid';
  message: string;
}

export interface PlanHtml {
  /** The instance's own HTML on its revision, and on the target one, with stub data; null when it cannot render. */
  before: string | null;
  after: string | null;
  /** The two differ (a render that fails on one side counts as a change). */
  changed: boolean;
  /** The revisions' CSS or JS differ: the instance may look different with the same HTML. */
  assets_changed: boolean;
  /** Why a side could not be rendered. */
  errors: string[];
}

export interface PlanEntry {
  /** The page-block instance. */
  id: number;
  page: { id: number; name: string };
  position: number;
  from: Version;
  to: Version;
  bump: 'minor' | 'major';
  /** `ready`: an upgrade everywhere takes it as the plan says; `blocked`: see `blocked_by`. */
  status: 'ready' | 'blocked';
  blocked_by: Blocker[];
  /** A migration takes it across (false until value migrations exist). */
  migration: boolean;
  added: AddedField[];
  removed_fields: string[];
  lost: LostValue[];
  migrated: MigratedValue[];
  /** The values it would hold after the upgrade. */
  values_after: Record<string, unknown>;
  /** Values that would not validate on the target revision, at their paths under `placeholder_values`. */
  invalid_values: PlanProblem[];
  /** Bindings that would stop validating, at their paths under `bindings`. */
  invalid_bindings: PlanProblem[];
  html: PlanHtml;
}

export interface PlanReason {
  /** The field, nested with dots and `[]` for list items. */
  field: string;
  code: ErrorCode | 'invalid';
  instances: number;
}

export interface PlanSummary {
  /** The caller's instances of the block, on all their pages. */
  instances: number;
  /** The pages they stand on. */
  pages: number;
  /** Instances on `to` already, and on a later revision than `to` (neither is in the plan). */
  up_to_date: number;
  ahead: number;
  /** Instances behind `to`: the plan's entries. */
  behind: number;
  /** Pages holding at least one instance behind. */
  pages_behind: number;
  /** Of those behind, how many an upgrade takes with a minor step, and how many through a migration. */
  minor: number;
  migration: number;
  /** How many are blocked, and by what (an instance may be blocked by several). */
  blocked: { instances: number; major: number; values: number; bindings: number };
  /** Values that would not validate, by field and code, the most instances first. */
  reasons: PlanReason[];
}

export interface UpgradePlan {
  block_id: number;
  to: Version;
  summary: PlanSummary;
  data: PlanEntry[];
  total: number;
  limit: number;
  offset: number;
}

export const sameVersion = (a: Version, b: Version) => a.major === b.major && a.minor === b.minor;
export const versionBefore = (a: Version, b: Version) =>
  a.major < b.major || (a.major === b.major && a.minor < b.minor);

/** An entry without its HTML: everything said from values and fields alone. */
export type PlannedEntry = Omit<PlanEntry, 'html'>;

/** One entry from the instance, the values the upgrade gives it, and what the target revision refuses. */
export function planEntry(row: PlanRow, to: Version, upgraded: UpgradedValues, problems: FieldError[]): PlannedEntry {
  const problem = (e: FieldError): PlanProblem => ({ path: e.path, code: e.code ?? 'invalid', message: e.message });
  const invalid_values = [...upgraded.problems, ...problems.filter((e) => !e.path.startsWith('bindings'))].map(problem);
  const invalid_bindings = problems.filter((e) => e.path.startsWith('bindings')).map(problem);
  const bump = row.version.major !== to.major || upgraded.removed_fields.length > 0 ? 'major' : 'minor';
  const blocked_by: Blocker[] = [];
  if (bump === 'major' && !upgraded.migration) blocked_by.push('major');
  if (invalid_values.length) blocked_by.push('values');
  if (invalid_bindings.length) blocked_by.push('bindings');
  return {
    id: row.id,
    page: { id: row.page_id, name: row.page_name },
    position: row.position,
    from: row.version,
    to,
    bump,
    status: blocked_by.length ? 'blocked' : 'ready',
    blocked_by,
    migration: upgraded.migration,
    added: upgraded.added,
    removed_fields: upgraded.removed_fields,
    lost: upgraded.lost,
    migrated: upgraded.migrated,
    values_after: upgraded.values,
    invalid_values,
    invalid_bindings,
  };
}

/** `placeholder_values.items[3].caption` → `items[].caption`. */
const fieldOf = (path: string) => path.replace(/^placeholder_values\.?/, '').replace(/\[\d+\]/g, '[]') || 'root';

export function summarize(rows: PlanRow[], to: Version, entries: PlannedEntry[]): PlanSummary {
  const reasons = new Map<string, PlanReason & { ids: Set<number> }>();
  for (const entry of entries)
    for (const problem of entry.invalid_values) {
      const field = fieldOf(problem.path);
      const key = `${field}\u0000${problem.code}`;
      let reason = reasons.get(key);
      if (!reason) reasons.set(key, (reason = { field, code: problem.code, instances: 0, ids: new Set() }));
      reason.ids.add(entry.id);
    }
  const count = (test: (e: PlannedEntry) => boolean) => entries.reduce((n, e) => (test(e) ? n + 1 : n), 0);
  return {
    instances: rows.length,
    pages: new Set(rows.map((r) => r.page_id)).size,
    up_to_date: rows.filter((r) => sameVersion(r.version, to)).length,
    ahead: rows.filter((r) => versionBefore(to, r.version)).length,
    behind: entries.length,
    pages_behind: new Set(entries.map((e) => e.page.id)).size,
    minor: count((e) => e.status === 'ready' && e.bump === 'minor' && !e.migration),
    migration: count((e) => e.status === 'ready' && e.migration),
    blocked: {
      instances: count((e) => e.status === 'blocked'),
      major: count((e) => e.blocked_by.includes('major')),
      values: count((e) => e.blocked_by.includes('values')),
      bindings: count((e) => e.blocked_by.includes('bindings')),
    },
    reasons: [...reasons.values()]
      .map(({ ids, ...reason }) => ({ ...reason, instances: ids.size }))
      .sort((a, b) => b.instances - a.instances || a.field.localeCompare(b.field)),
  };
}
