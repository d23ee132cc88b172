import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { PageVersions } from './dialect.js';

/**
 * `page_content_versions.version`: one number per page, moved by triggers in
 * the transaction of every write that changes what `GET /pages/{id}` answers,
 * so that a kept answer is checked against its own page only: a write to one
 * page leaves every other page's kept answer standing. Triggers, so that no
 * writer can forget (the migration CLI and a script on the file included).
 *
 * A table of its own rather than a column of `pages`: a page's instances are
 * written by the row, and bumping a narrow row per instance costs far less
 * than rewriting the page row (SQLite has no statement triggers).
 *
 * Committed versions only grow, and page ids are never reused
 * (AUTOINCREMENT), so an answer kept with a version is that version's. A
 * rolled back write (a dry run) takes its bump back with it; no read sees it
 * before, since nothing reads inside another request's transaction
 * (`Database.readNow`).
 *
 * What moves it (the same list as PostgreSQL's `pages.content_version`):
 * - any update of the page row (its fields, `updated_at`, site and folder
 *   changes, including a folder's or site's deletion that clears the column);
 * - any insert, update or delete of its `page_blocks` (values, bindings, order,
 *   nesting, pins), for the page before and after;
 * - a block's name, kind, current revision (the outdated flags) or
 *   deprecation, for every page that pins the block.
 * Block revisions are never updated in place, and the answer shows nothing of
 * sites, folders or users but the page's own columns.
 */
async function migrate(db: Kysely<any>): Promise<void> {
  await sql`create table page_content_versions (
    page_id integer primary key references pages(id) on delete cascade,
    version integer not null)`.execute(db);
  await sql`insert into page_content_versions (page_id, version) select id, 1 from pages`.execute(db);
  const bump = (page: string) =>
    sql.raw(`update page_content_versions set version = version + 1 where page_id = ${page};`);
  await sql`create trigger page_version_on_insert after insert on pages begin
    insert into page_content_versions (page_id, version) values (new.id, 1); end`.execute(db);
  await sql`create trigger page_version_on_update after update on pages begin ${bump('new.id')} end`.execute(db);
  await sql`create trigger page_version_on_instance_insert after insert on page_blocks begin
    ${bump('new.page_id')} end`.execute(db);
  await sql`create trigger page_version_on_instance_delete after delete on page_blocks begin
    ${bump('old.page_id')} end`.execute(db);
  await sql`create trigger page_version_on_instance_update after update on page_blocks begin
    ${bump('new.page_id')}
    update page_content_versions set version = version + 1
      where page_id = old.page_id and old.page_id <> new.page_id; end`.execute(db);
  await sql`create trigger page_version_on_block after update on blocks
    when old.name is not new.name or old.kind is not new.kind
      or old.current_revision_id is not new.current_revision_id
      or old.is_deprecated is not new.is_deprecated
    begin
      update page_content_versions set version = version + 1
        where page_id in (select page_id from page_blocks where block_id = new.id);
    end`.execute(db);
}

/** The page's version as text (null when there is no such page), to select beside other columns. */
const of = (pageId: number): RawBuilder<string | null> =>
  sql<string | null>`(select cast(version as text) from page_content_versions where page_id = ${pageId})`;

export const sqlitePageVersions: PageVersions = { since: 25, migrate, of };
