import type { Kysely } from 'kysely';
import type { NewBlock, NewRevision } from '../../modules/blocks/blocks.js';
import type { Dialect } from '../dialects/dialect.js';
import type { DB } from '../schema.js';
import { fromJson, toJson } from './rows.js';
import type { MigrationStep } from '../../modules/blocks/migrations/index.js';

/**
 * The steps of writing a block, each run inside the caller's transaction, so
 * that creating, updating, forking and approving a submission are each atomic.
 */
export async function writeRevision(
  trx: Kysely<DB>,
  blockId: number,
  revision: NewRevision,
  now: string,
): Promise<number> {
  const { id } = await trx
    .insertInto('block_revisions')
    .values({
      block_id: blockId,
      major: revision.version.major,
      minor: revision.version.minor,
      template: revision.template,
      css: revision.css,
      js: revision.js,
      schema_content: toJson(revision.schema_content),
      changelog: revision.changelog,
      created_at: now,
      migrations: toJson(revision.migrations ?? []),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (revision.sources.length) {
    await trx
      .insertInto('block_revision_sources')
      .values(revision.sources.map((source_id) => ({ revision_id: id, source_id })))
      .execute();
  }
  await trx.updateTable('blocks').set({ current_revision_id: id }).where('id', '=', blockId).execute();
  return id;
}

/**
 * Steps that fix values on the current revision (set, default, derive),
 * after the ones it carries already: run when an instance migrates to it.
 */
export async function appendFixes(trx: Kysely<DB>, revisionId: number, fixes: MigrationStep[]): Promise<void> {
  const row = await trx
    .selectFrom('block_revisions')
    .select('migrations')
    .where('id', '=', revisionId)
    .executeTakeFirstOrThrow();
  const steps = [...fromJson<MigrationStep[]>(row.migrations), ...fixes];
  await trx
    .updateTable('block_revisions')
    .set({ migrations: toJson(steps) })
    .where('id', '=', revisionId)
    .execute();
}

/** Rewrites the block's full-text entry from its current name, texts and tag names. */
export async function reindexBlock(trx: Kysely<DB>, dialect: Dialect, blockId: number): Promise<void> {
  const block = await trx
    .selectFrom('blocks')
    .select(['name', 'description', 'docs'])
    .where('id', '=', blockId)
    .executeTakeFirstOrThrow();
  const tags = await trx
    .selectFrom('block_tags')
    .innerJoin('tags', 'tags.id', 'block_tags.tag_id')
    .select('tags.name')
    .where('block_tags.block_id', '=', blockId)
    .execute();
  await dialect.search.index(trx, blockId, { ...block, tags: tags.map((t) => t.name).join(' ') });
}

export async function replaceTags(trx: Kysely<DB>, blockId: number, tags: number[]): Promise<void> {
  await trx.deleteFrom('block_tags').where('block_id', '=', blockId).execute();
  const unique = [...new Set(tags)];
  if (unique.length)
    await trx
      .insertInto('block_tags')
      .values(unique.map((tag_id) => ({ block_id: blockId, tag_id })))
      .execute();
}

export async function insertBlock(trx: Kysely<DB>, dialect: Dialect, input: NewBlock): Promise<number> {
  const { id } = await trx
    .insertInto('blocks')
    .values({
      owner_id: input.ownerId,
      scope: input.scope,
      kind: input.kind,
      ...input.fields,
      cover_key: null,
      is_deprecated: false,
      forked_from_id: input.forkedFromId ?? null,
      current_revision_id: null,
      created_at: input.now,
      updated_at: input.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await replaceTags(trx, id, input.tags);
  if (input.revision) await writeRevision(trx, id, input.revision, input.now);
  if (input.forkedFromId !== undefined) {
    await trx
      .updateTable('blocks')
      .set((eb) => ({ fork_count: eb('fork_count', '+', 1) }))
      .where('id', '=', input.forkedFromId)
      .execute();
  }
  await reindexBlock(trx, dialect, id);
  return id;
}
