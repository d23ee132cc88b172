import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.js';

// Twenty names: one block in twenty is a "gallery" (B4 searches for it), and only by its name.
const WORDS = [
  'hero',
  'gallery',
  'pricing',
  'testimonial',
  'banner',
  'footer',
  'header',
  'card',
  'grid',
  'quote',
  'video',
  'form',
  'faq',
  'timeline',
  'team',
  'stats',
  'map',
  'cta',
  'feature',
  'logo',
];
const TRAITS = ['bold', 'quiet', 'wide', 'narrow', 'dark', 'light', 'dense', 'airy', 'classic', 'modern', 'compact'];

/**
 * Grows the library to `total` private blocks of `ownerId`, straight through
 * the service's own database layer (HTTP would take minutes at 100k). Each
 * block gets its full-text entry from the dialect, as a write through the API does.
 */
export async function growLibrary(
  env: { dataDir: string; databaseUrl: string | undefined; schema: string | undefined },
  ownerId: number,
  total: number,
): Promise<number> {
  const database = await openDatabase({
    dataDir: env.dataDir,
    databaseUrl: env.databaseUrl,
    databaseSchema: env.schema,
  });
  const started = performance.now();
  try {
    const { db, dialect } = database;
    let count = Number(
      (
        await db
          .selectFrom('blocks')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('owner_id', '=', ownerId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    while (count < total) {
      const batch = Math.min(1000, total - count);
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        const rows = Array.from({ length: batch }, (_, k) => {
          const i = count + k;
          const word = WORDS[i % WORDS.length]!;
          return {
            owner_id: ownerId,
            scope: 'user' as const,
            kind: 'content' as const,
            name: `${word} block ${i}`,
            description: `A ${TRAITS[i % TRAITS.length]} section number ${i}`,
            docs: `Use it for ${TRAITS[(i * 7) % TRAITS.length]} content.`,
            block_type: null,
            cover_key: null,
            is_deprecated: false,
            forked_from_id: null,
            current_revision_id: null,
            created_at: now,
            updated_at: now,
          };
        });
        const inserted = await trx
          .insertInto('blocks')
          .values(rows)
          .returning(['id', 'name', 'description', 'docs'])
          .execute();
        for (const row of inserted)
          await dialect.search.index(trx, row.id, {
            name: row.name,
            description: row.description,
            docs: row.docs,
            tags: '',
          });
      });
      count += batch;
    }
    // What autovacuum does soon after a bulk load: statistics for the planner, and the GIN
    // index's pending list merged (until then every search scans that list). The steady state is measured.
    if (dialect.name === 'postgres') await sql`vacuum analyze blocks, block_search`.execute(db);
    return (performance.now() - started) / 1000;
  } finally {
    await database.close();
  }
}
