/**
 * The physical floors of B1 and B2: a bare Fastify process on the same core,
 * with no auth, validation or service layer. Started by bench/run.ts.
 */
import Fastify from 'fastify';
import { loadConfig } from '../src/config/config.js';
import { openDatabase } from '../src/db/database.js';

const config = loadConfig();
const database = await openDatabase(config);
const ids = JSON.parse(process.env.BENCH_IDS ?? '{}') as { ownerId: number; siteId: number; blockId: number; revisionId: number };
const app = Fastify();

app.get('/ready', async () => ({ status: 'ready' }));
// B1's floor: a small JSON.
app.get('/floor', async () => ({ id: 1, name: 'floor', ok: true }));
// B2's floor: the rows a page with 20 blocks writes, in one transaction.
app.post('/floor', async () => {
  const now = new Date().toISOString();
  return database.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('pages')
      .values({ owner_id: ids.ownerId, site_id: ids.siteId, folder_id: null, kind: 'article', name: 'Floor', slug: null, meta_title: null, meta_description: null, meta_keywords: null, meta_robots: null, is_published: false, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 20; i++) {
      await trx
        .insertInto('page_blocks')
        .values({ page_id: id, block_id: ids.blockId, revision_id: ids.revisionId, major: 1, minor: 0, schema_snapshot: '[]', placeholder_values: JSON.stringify({ title: `Section ${i}` }), bindings: null, parent_page_block_id: null, order_index: i, created_at: now, updated_at: now })
        .execute();
    }
    return { id };
  });
});

await app.listen({ host: config.host, port: config.port });
const stop = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
