import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { PageVersions } from './dialect.js';

/**
 * `pages.content_version`: a value from one sequence, set anew by triggers in
 * the transaction of every write that changes what `GET /pages/{id}` answers,
 * so that several instances can keep a page's answer and check, with the key
 * lookup, that it still holds. Values are never reused, so an answer kept
 * with a version is that version's, whatever commits meanwhile.
 *
 * What moves it, and why each:
 * - any update of the page row (its fields, `updated_at`, site and folder
 *   changes, including a folder's or site's deletion that clears the column;
 *   publication state is shown too);
 * - any insert, update or delete of its `page_blocks` (values, bindings, order,
 *   nesting, pins), once per statement and page, and not at all when the
 *   transaction already moved the page row (its new version is not yet seen
 *   by anyone): a reorder of 200 instances writes the page row once;
 * - a block's name, kind, current revision (the outdated flags) or
 *   deprecation, for every page that uses the block.
 * Block revisions are never updated in place, and the answer shows nothing
 * of sites, folders or users but the page's own columns.
 *
 * The functions keep the search path they were created with, so that a write
 * by psql or a script with another search path still finds the tables.
 */
async function migrate(db: Kysely<any>): Promise<void> {
  await sql`create sequence page_content_versions`.execute(db);
  await sql`alter table pages add column content_version bigint not null
    default nextval('page_content_versions')`.execute(db);

  // The page row itself: a statement that already set a new version (the cascades below) keeps it.
  await sql`create function page_version_on_update() returns trigger language plpgsql
    set search_path from current as $$
    begin
      if new.content_version = old.content_version then
        new.content_version := nextval('page_content_versions');
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger page_version_on_update before update on pages
    for each row execute function page_version_on_update()`.execute(db);

  // Instances: once per statement (transition tables), for the pages it touched.
  await sql`create function page_version_on_instance_insert() returns trigger language plpgsql
    set search_path from current as $$
    begin
      update pages set content_version = nextval('page_content_versions')
        where id in (select page_id from touched_new) and xmin <> pg_current_xact_id()::xid;
      return null;
    end $$`.execute(db);
  await sql`create function page_version_on_instance_delete() returns trigger language plpgsql
    set search_path from current as $$
    begin
      update pages set content_version = nextval('page_content_versions')
        where id in (select page_id from touched_old) and xmin <> pg_current_xact_id()::xid;
      return null;
    end $$`.execute(db);
  await sql`create function page_version_on_instance_update() returns trigger language plpgsql
    set search_path from current as $$
    begin
      update pages set content_version = nextval('page_content_versions')
        where id in (select page_id from touched_new union select page_id from touched_old)
        and xmin <> pg_current_xact_id()::xid;
      return null;
    end $$`.execute(db);
  await sql`create trigger page_version_on_instance_insert after insert on page_blocks
    referencing new table as touched_new
    for each statement execute function page_version_on_instance_insert()`.execute(db);
  await sql`create trigger page_version_on_instance_delete after delete on page_blocks
    referencing old table as touched_old
    for each statement execute function page_version_on_instance_delete()`.execute(db);
  await sql`create trigger page_version_on_instance_update after update on page_blocks
    referencing old table as touched_old new table as touched_new
    for each statement execute function page_version_on_instance_update()`.execute(db);

  // A block's shown columns: every page using it, locked in id order (two such
  // changes over the same pages never wait on each other crosswise).
  await sql`create function page_version_on_block() returns trigger language plpgsql
    set search_path from current as $$
    begin
      update pages set content_version = nextval('page_content_versions')
        where id in (
          select p.id from pages p
          where p.id in (select page_id from page_blocks where block_id = new.id)
            and p.xmin <> pg_current_xact_id()::xid
          order by p.id for no key update);
      return null;
    end $$`.execute(db);
  await sql`create trigger page_version_on_block after update on blocks for each row
    when (old.name is distinct from new.name or old.kind is distinct from new.kind
      or old.current_revision_id is distinct from new.current_revision_id
      or old.is_deprecated is distinct from new.is_deprecated)
    execute function page_version_on_block()`.execute(db);
}

/** The page's version as text (null when there is no such page), to select beside other columns. */
const of = (pageId: number): RawBuilder<string | null> =>
  sql<string | null>`(select content_version::text from pages where id = ${pageId})`;

export const postgresPageVersions: PageVersions = { since: 13, migrate, of };
