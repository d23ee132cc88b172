import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import {
  AppError,
  conflict,
  fieldError,
  forbidden,
  notFound,
  unprocessable,
  versionConflict,
  versionHolds,
  type ExpectedVersions,
} from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import {
  blockNotFound,
  type BlockFields,
  type BlockKind,
  type BlockListQuery,
  type BlockScope,
  type BlocksRepository,
  type BlockType,
  type LoadedBlock,
  type PinnableBlock,
  type NewRevision,
  type Revision,
  type RevisionSummary,
  type SourceCatalog,
  type TemplateChecker,
  type Version,
  type VersionBump,
} from './blocks.js';
import { searchTerms } from './search-terms.js';
import { blockData, withBumps } from './block-events.js';
import { NO_OUTBOX, type Outbox } from '../webhooks/webhooks.js';
import { attachMigrations } from './revision-migrations.js';
import {
  bindingSlots,
  computeVersionBump,
  removedFields,
  validateSchemaContent,
  type FieldDefinition,
} from './schema/index.js';

export interface BlockInput {
  name?: string;
  description?: string;
  docs?: string;
  block_type?: BlockType;
  kind?: BlockKind;
  tags?: number[];
  template?: string;
  css?: string;
  js?: string;
  schema_content?: unknown[];
  changelog?: string | null;
  /** Value migrations from the current revision to the one this update makes (`migrations/`). */
  migrations?: unknown[];
}

/** A revision in the history with the step that made it; null for the first. */
export type RevisionEntry = RevisionSummary & { version_bump: 'major' | 'minor' | null };

const FIRST_VERSION: Version = { major: 1, minor: 0 };

const readableBy = (block: Pick<LoadedBlock, 'scope' | 'owner_id'>, actor: Actor) =>
  block.scope === 'global' || block.owner_id === actor.userId;

export class BlocksService {
  constructor(
    private readonly deps: {
      blocks: BlocksRepository;
      sources: SourceCatalog;
      clock: Clock;
      /** Refuses a template that cannot be rendered before it becomes a revision. */
      templates: TemplateChecker;
      /** block.revised (and page.outdated) and block.deprecated, recorded with the write. */
      outbox?: Outbox;
    },
  ) {}

  async list(actor: Actor, query: Omit<BlockListQuery, 'viewerId'>): Promise<Page<LoadedBlock>> {
    const { rows, total } = await this.deps.blocks.list({ ...query, viewerId: actor.userId });
    return pageOf(rows, total, query);
  }

  async favorites(actor: Actor, page: PageRequest): Promise<Page<LoadedBlock>> {
    const { rows, total } = await this.deps.blocks.favorites(actor.userId, page);
    return pageOf(rows, total, page);
  }

  /** Full-text search, best match first; deprecated and foreign private blocks never appear. */
  async search(actor: Actor, query: PageRequest & { q: string }): Promise<Page<LoadedBlock>> {
    const terms = searchTerms(query.q);
    if (terms.length === 0) throw fieldError('q', 'The query has no letters or digits to search for.');
    const { rows, total } = await this.deps.blocks.search({
      terms,
      viewerId: actor.userId,
      limit: query.limit,
      offset: query.offset,
    });
    return pageOf(rows, total, query);
  }

  /** A block the actor may read: its own, or any global one (deprecated included). */
  async get(actor: Actor, id: number): Promise<LoadedBlock> {
    const block = await this.deps.blocks.load(id, actor.userId);
    if (!block) throw blockNotFound(id);
    if (!readableBy(block, actor)) throw forbidden(`Block ${id} belongs to another user.`);
    return block;
  }

  /** A block the actor may read, with its revision at `version` (the one an outdated instance stands on). */
  async getAt(actor: Actor, id: number, version: Version): Promise<{ block: LoadedBlock; revision: Revision }> {
    const block = await this.get(actor, id);
    const revision = await this.deps.blocks.revisionAt(id, version);
    if (!revision) {
      const at = `${version.major}.${version.minor}`;
      throw notFound(`Block ${id} has no revision ${at}.`, [
        { path: 'version', message: `Block ${id} has no revision ${at}.`, code: 'not_found' },
      ]);
    }
    return { block, revision };
  }

  /** The blocks of these ids that the actor may read, by id; the others are absent. */
  async readable(actor: Actor, ids: number[]): Promise<Map<number, LoadedBlock>> {
    const blocks = await this.deps.blocks.loadMany([...new Set(ids)], actor.userId);
    return new Map(blocks.filter((b) => readableBy(b, actor)).map((b) => [b.id, b]));
  }

  /** As `readable`, with only what pinning instances needs (page writes). */
  async pinnable(actor: Actor, ids: number[]): Promise<Map<number, PinnableBlock>> {
    const blocks = await this.deps.blocks.pinnable([...new Set(ids)]);
    return new Map(blocks.filter((b) => readableBy(b, actor)).map((b) => [b.id, b]));
  }

  /** `scope: 'global'` is the administrators' path (`/api/admin/blocks`). */
  async create(actor: Actor, input: BlockInput & { name: string }, scope: BlockScope = 'user'): Promise<LoadedBlock> {
    if (scope === 'global') this.requireAdmin(actor);
    await this.checkTags(input.tags);
    const hasContent = ['template', 'css', 'js', 'schema_content'].some(
      (k) => input[k as keyof BlockInput] !== undefined,
    );
    const revision = hasContent
      ? await this.newRevision(
          {
            template: input.template ?? '',
            css: input.css ?? '',
            js: input.js ?? '',
            schema_content: input.schema_content ?? [],
          },
          FIRST_VERSION,
          input.changelog ?? null,
        )
      : null;
    const id = await this.deps.blocks.create({
      ownerId: actor.userId,
      scope,
      kind: input.kind ?? 'content',
      fields: {
        name: input.name,
        description: input.description ?? '',
        docs: input.docs ?? '',
        block_type: input.block_type ?? null,
      },
      tags: input.tags ?? [],
      revision,
      now: this.now(),
    });
    return this.get(actor, id);
  }

  /**
   * Changes of template, CSS, JS or fields make a new immutable revision; the
   * bump is computed from the difference. Two updates of one block at once each read it, then write under its lock:
   * the second finds a revision it did not read, and is made again from the
   * block as the first left it (its version then follows the first's).
   */
  async update(
    actor: Actor,
    id: number,
    input: BlockInput,
    scope: BlockScope = 'user',
    expected?: ExpectedVersions,
  ): Promise<{ block: LoadedBlock; version_bump: VersionBump; removed_fields: string[] }> {
    for (let attempt = 1; ; attempt++) {
      const done = await this.updateOnce(actor, id, input, scope, expected);
      if (done) return done;
      if (attempt === 5) throw conflict(`Block ${id} is being changed by other requests: read it again and retry.`);
    }
  }

  private async updateOnce(
    actor: Actor,
    id: number,
    input: BlockInput,
    scope: BlockScope,
    expected: ExpectedVersions,
  ): Promise<{ block: LoadedBlock; version_bump: VersionBump; removed_fields: string[] } | undefined> {
    const block = await this.get(actor, id);
    this.requireWritable(actor, block, scope);
    // Stale already: said before anything in the body is looked at. The write checks again under the lock.
    if (!versionHolds(expected, block.edit_version)) throw versionConflict(`Block ${id}`, block.edit_version);
    if (input.kind !== undefined && input.kind !== block.kind) {
      throw fieldError('kind', 'The kind of a block is fixed at creation.');
    }
    await this.checkTags(input.tags);
    const before = block.revision ?? { template: '', css: '', js: '', schema_content: [] };
    const after = {
      template: input.template ?? before.template,
      css: input.css ?? before.css,
      js: input.js ?? before.js,
      schema_content: input.schema_content ?? before.schema_content,
    };
    let bump: VersionBump = block.revision ? computeVersionBump(before, after) : 'none';
    let revision: NewRevision | null = null;
    if (
      !block.revision &&
      ['template', 'css', 'js', 'schema_content'].some((k) => input[k as keyof BlockInput] !== undefined)
    ) {
      // The first content of a block created bare: version 1.0, reported as a major step.
      bump = 'major';
      revision = await this.newRevision(after, FIRST_VERSION, input.changelog ?? null);
    } else if (bump !== 'none' && block.revision) {
      const { major, minor } = block.revision.version;
      const version = bump === 'major' ? { major: major + 1, minor: 0 } : { major, minor: minor + 1 };
      revision = await this.newRevision(after, version, input.changelog ?? null);
    }
    const fixes =
      input.migrations && (await attachMigrations(input.migrations, block.revision, revision, this.deps.templates));
    const fields: BlockFields = {
      name: input.name ?? block.name,
      description: input.description ?? block.description,
      docs: input.docs ?? block.docs,
      block_type: input.block_type !== undefined ? input.block_type : block.block_type,
    };
    const basedOn = block.revision?.id ?? null;
    const written = await (this.deps.outbox ?? NO_OUTBOX).within(
      () =>
        this.deps.blocks.update({ id, basedOn, expected, fields, tags: input.tags, revision, fixes, now: this.now() }),
      (w) =>
        w === 'done' && revision
          ? [{ blockId: id, type: 'block.revised', data: blockData(block, revision.version, bump) }]
          : [],
    );
    if (written === 'moved') return undefined;
    if (written !== 'done') throw versionConflict(`Block ${id}`, written.stale);
    const removed = block.revision ? removedFields(before.schema_content, after.schema_content) : [];
    return { block: await this.get(actor, id), version_bump: bump, removed_fields: removed };
  }

  async delete(actor: Actor, id: number, expected?: ExpectedVersions): Promise<void> {
    const block = await this.get(actor, id);
    this.requireWritable(actor, block, block.scope);
    if (!versionHolds(expected, block.edit_version)) throw versionConflict(`Block ${id}`, block.edit_version);
    const refused = await this.deps.blocks.delete(id, expected);
    if (refused) throw versionConflict(`Block ${id}`, refused.stale);
  }

  /** A private copy of a global block, starting at 1.0 with the source's current content. */
  async fork(actor: Actor, id: number, name?: string | null): Promise<LoadedBlock> {
    const source = await this.get(actor, id);
    if (source.scope !== 'global')
      throw fieldError('id', `Block ${id} is not global: only global blocks can be forked.`);
    const revision = source.revision
      ? {
          ...this.revisionContent(source),
          version: FIRST_VERSION,
          changelog: `Forked from block ${id} at ${source.revision.version.major}.${source.revision.version.minor}.`,
        }
      : null;
    const newId = await this.deps.blocks.create({
      ownerId: actor.userId,
      scope: 'user',
      kind: source.kind,
      fields: {
        name: name ?? `${source.name} (fork)`,
        description: source.description,
        docs: source.docs,
        block_type: source.block_type,
      },
      tags: source.tags,
      revision: revision && { ...revision, sources: this.sourcesOf(revision.schema_content) },
      forkedFromId: id,
      now: this.now(),
    });
    return this.get(actor, newId);
  }

  async setFavorite(actor: Actor, id: number, on: boolean): Promise<void> {
    await this.get(actor, id);
    await this.deps.blocks.setFavorite(actor.userId, id, on, this.now());
  }

  async setDeprecated(actor: Actor, id: number, isDeprecated: boolean): Promise<LoadedBlock> {
    this.requireAdmin(actor);
    // Administrators look at any block here: a private one gets the 422 it deserves, not a 403.
    const block = await this.deps.blocks.load(id, actor.userId);
    if (!block) throw blockNotFound(id);
    if (block.scope !== 'global') {
      throw unprocessable('Only global blocks can be deprecated.', [
        { path: 'root', message: `Block ${id} is private.` },
      ]);
    }
    await (this.deps.outbox ?? NO_OUTBOX).within(
      () => this.deps.blocks.setDeprecated(id, isDeprecated, this.now()),
      () =>
        isDeprecated && !block.is_deprecated ? [{ blockId: id, type: 'block.deprecated', data: blockData(block) }] : [],
    );
    return this.get(actor, id);
  }

  /**
   * The history of a block, newest first, with the bump each revision was:
   * `major` when the major part grew, else `minor`; null for the first one.
   * One revision more is read than shown, so the oldest on a page knows its predecessor.
   */
  async revisions(actor: Actor, id: number, page: PageRequest): Promise<Page<RevisionEntry>> {
    await this.get(actor, id);
    const { rows, total } = await this.deps.blocks.revisions({
      blockId: id,
      limit: page.limit + 1,
      offset: page.offset,
    });
    const entries = withBumps(rows, page.limit);
    return pageOf(entries, total, page);
  }

  async usages(actor: Actor, id: number, query: PageRequest & { outdatedOnly: boolean }) {
    await this.get(actor, id);
    const { rows, total, outdatedTotal } = await this.deps.blocks.usages({
      ...query,
      blockId: id,
      userId: actor.userId,
    });
    return { ...pageOf(rows, total, query), outdated_total: outdatedTotal };
  }

  private async newRevision(
    content: { template: string; css: string; js: string; schema_content: unknown[] },
    version: Version,
    changelog: string | null,
  ): Promise<NewRevision> {
    const [sources, resultTypes] = await Promise.all([
      this.deps.sources.knownSourceIds(),
      this.deps.sources.knownResultTypeIds(),
    ]);
    const checked = validateSchemaContent(content.schema_content, { sources, resultTypes });
    if (!checked.ok)
      throw unprocessable('The block schema (schema_content) is not valid: see errors[].', checked.errors);
    // A revision is made to be rendered: one whose template does not parse would fail on every page it is put on.
    const problem = await this.deps.templates.check(content.template);
    if (problem)
      throw unprocessable('The template cannot be parsed: see errors[].', [
        { path: 'template', message: problem.message, code: 'invalid', line: problem.line, column: problem.column },
      ]);
    return { ...content, schema_content: checked.fields, version, changelog, sources: this.sourcesOf(checked.fields) };
  }

  private sourcesOf(fields: FieldDefinition[]): string[] {
    return [...new Set(bindingSlots(fields).flatMap((slot) => slot.allowed_sources))];
  }

  private revisionContent(block: LoadedBlock) {
    const r = block.revision!;
    return { template: r.template, css: r.css, js: r.js, schema_content: r.schema_content };
  }

  private async checkTags(tags: number[] | undefined) {
    if (!tags?.length) return;
    const missing = await this.deps.blocks.missingTags(tags);
    if (missing.length) {
      throw unprocessable(
        'Some tags do not exist: see GET /tags.',
        tags.flatMap((tag, i) =>
          missing.includes(tag) ? [{ path: `tags[${i}]`, message: `Tag ${tag} does not exist.` }] : [],
        ),
      );
    }
  }

  /** Private blocks are changed by their owner; global ones only by administrators, on their own routes. */
  private requireWritable(actor: Actor, block: LoadedBlock, scope: BlockScope) {
    if (block.scope === 'global') {
      if (scope !== 'global' || !actor.isAdmin)
        throw forbidden(`Block ${block.id} is global: only administrators change it, under /api/admin/blocks.`);
      return;
    }
    if (block.owner_id !== actor.userId) throw forbidden(`Block ${block.id} belongs to another user.`);
    if (scope === 'global')
      throw new AppError('unprocessable', `Block ${block.id} is private: use PUT /api/v1/blocks/${block.id}.`);
  }

  private requireAdmin(actor: Actor) {
    if (!actor.isAdmin) throw forbidden('Administrators only.');
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }
}
