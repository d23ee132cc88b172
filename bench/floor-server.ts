/**
 * The physical floors of B1 and B2: a bare Fastify process on the same core,
 * with no auth, validation or service layer. Started by bench/run.ts.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { loadConfig } from '../src/config/config.js';
import { openDatabase } from '../src/db/database.js';
import { apiKeysRepository } from '../src/db/repositories/api-keys.repository.js';
import { sha256Hex } from '../src/shared/secrets.js';

const config = loadConfig();
const database = await openDatabase(config);
const ids = JSON.parse(process.env.BENCH_IDS ?? '{}') as {
  ownerId: number;
  siteId: number;
  blockId: number;
  revisionId: number;
  snapshot: unknown[];
};
const app = Fastify();

app.get('/ready', async () => ({ status: 'ready' }));
// B1's floor: a small JSON.
app.get('/floor', async () => ({ id: 1, name: 'floor', ok: true }));
// What B1 cannot go below, in two steps: its own answer's bytes, as kept, and
// those bytes after the API key's lookup (the same query; never cached, so that
// a deleted key fails at once).
const b1Body = process.env.BENCH_B1_BODY ? readFileSync(process.env.BENCH_B1_BODY) : Buffer.from('{}');
const keys = apiKeysRepository(database);
app.get('/floor/bytes', (_request, reply) => reply.type('application/json; charset=utf-8').send(b1Body));
app.get('/floor/bytes-key', async (request, reply) => {
  const presented = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  if (!(await keys.findOwnerByHash(sha256Hex(presented)))) return reply.status(401).send({ error: 'no such key' });
  return reply.type('application/json; charset=utf-8').send(b1Body);
});
// B2's floor: the same request body, and the rows the service writes for it, in one transaction.
app.post('/floor', async (request) => {
  const body = request.body as { name: string; blocks: Array<{ placeholder_values: unknown }> };
  const now = new Date().toISOString();
  return database.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('pages')
      .values({
        owner_id: ids.ownerId,
        site_id: ids.siteId,
        folder_id: null,
        kind: 'article',
        name: body.name,
        slug: null,
        meta_title: null,
        meta_description: null,
        meta_keywords: null,
        meta_robots: null,
        is_published: false,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // One multi-row INSERT, as the service writes them.
    await trx
      .insertInto('page_blocks')
      .values(
        body.blocks.map((block, i) => ({
          page_id: id,
          block_id: ids.blockId,
          revision_id: ids.revisionId,
          major: 1,
          minor: 0,
          schema_snapshot: JSON.stringify(ids.snapshot),
          placeholder_values: JSON.stringify(block.placeholder_values),
          bindings: null,
          parent_page_block_id: null,
          order_index: i,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
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
