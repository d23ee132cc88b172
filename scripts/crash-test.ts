/**
 * `npm run test:crash`: acknowledged writes survive a SIGKILL.
 *
 * Starts the production build, keeps concurrent writers busy (new pages,
 * instances inserted into and moved within one shared page by several writers
 * at once, and on another page value changes and restores of its versions),
 * kills the process with SIGKILL at
 * a random moment, checks the stored data's invariants, restarts, and checks
 * that every write that was answered 2xx is there (the integrity check holds
 * each page to its latest version). CRASH_CYCLES (default 3)
 * kills; runs on PostgreSQL when DATABASE_URL is set, else on SQLite.
 * Exits non-zero on any lost write or broken invariant.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { checkIntegrity } from '../src/db/integrity.js';

const CYCLES = Number(process.env.CRASH_CYCLES ?? 3);
const WRITERS = 8;
/** Writers 0..3 work on one shared page (inserts and moves), 4 and 5 create pages, 6 and 7 change and restore a page. */
const SHARED_WRITERS = 4;
const PAGE_WRITERS = 6;
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `crash_${randomBytes(6).toString('hex')}` : undefined;
const built = `node_modules/.cache/pageblocks-crash-${randomBytes(4).toString('hex')}`;

interface Server {
  child: ChildProcess;
  url: string;
}

async function start(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [`${built}/main.js`], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listen line in: ${output}`)), 120_000);
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      const match = /listening at (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before listening: ${output}`)));
  });
  return { child, url };
}

const exited = (child: ChildProcess) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(null);
    else child.once('exit', resolve);
  });

interface Page {
  id: number;
  name: string;
  version: number;
  blocks?: { id: number; placeholder_values: { title?: string } }[];
}

/** One request; the answer's body is trusted to be the shape the caller names (this script checks the service, not its types). */
async function call<T = unknown>(
  url: string,
  method: string,
  path: string,
  auth: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: T }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

async function main() {
  await promisify(execFile)(process.execPath, ['scripts/build.mjs', built]);
  const dataDir = await mkdtemp(join(tmpdir(), 'pageblocks-crash-'));
  let acked = 0;
  let lost = 0;
  let failures = 0;
  try {
    let server = await start(dataDir);
    const email = `crash-${randomBytes(4).toString('hex')}@example.test`;
    const registered = await call(
      server.url,
      'POST',
      '/api/auth/register',
      {},
      { email, password: 'crash-test-password' },
    );
    const cookie = registered.headers.getSetCookie()[0]!.split(';')[0]!;
    const key = (await call<{ key: string }>(server.url, 'POST', '/api/api-keys', { cookie }, { title: 'crash' })).body
      .key;
    const auth = { authorization: `Bearer ${key}` };
    const site = (await call<{ id: number }>(server.url, 'POST', '/api/v1/sites', auth, { name: 'Crash' })).body;
    const block = (
      await call<{ id: number }>(server.url, 'POST', '/api/v1/blocks', auth, {
        name: 'Line',
        template: '<p>{{ title }}</p>',
        schema_content: [{ name: 'title', type: 'string', required: true }],
      })
    ).body;
    const shared = (
      await call<Page>(server.url, 'POST', '/api/v1/pages', auth, { name: 'Shared', site_id: site.id, blocks: [] })
    ).body;

    const history = (
      await call<Page>(server.url, 'POST', '/api/v1/pages', auth, {
        name: 'History',
        site_id: site.id,
        blocks: ['a', 'b', 'c'].map((title) => ({ block_id: block.id, placeholder_values: { title } })),
      })
    ).body;
    let historyVersion = history.version; // the latest acknowledged version of the history page

    const pages = new Map<number, string>(); // acknowledged page id → name
    const lines = new Set<string>(); // acknowledged instance titles on the shared page

    const serverError = (r: { status: number; body: unknown }) => {
      failures++;
      console.error(`${r.status}: ${JSON.stringify(r.body)}`);
    };

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      let running = true;
      const writer = async (n: number) => {
        for (let i = 0; running; i++) {
          const token = `c${cycle}-w${n}-${i}`;
          try {
            if (n >= PAGE_WRITERS) {
              // Value changes and restores of one page: each makes a version in its write's transaction.
              const r =
                n % 2 === 0
                  ? await call<Page>(server.url, 'GET', `/api/v1/pages/${history.id}?with_blocks=1`, auth).then(
                      (page) => {
                        const blocks = page.body?.blocks ?? [];
                        if (blocks.length === 0) return { status: 0, body: undefined as unknown as Page };
                        return call<Page>(
                          server.url,
                          'PUT',
                          `/api/v1/pages/${history.id}/blocks/${blocks[randomInt(0, blocks.length)]!.id}`,
                          auth,
                          { placeholder_values: { title: token } },
                        );
                      },
                    )
                  : await call<Page>(
                      server.url,
                      'POST',
                      `/api/v1/pages/${history.id}/versions/${randomInt(1, historyVersion + 1)}/restore`,
                      auth,
                    );
              if (r.status === 200 && r.body.version) historyVersion = Math.max(historyVersion, r.body.version);
              else if (r.status >= 500) serverError(r);
            } else if (n >= SHARED_WRITERS) {
              const r = await call<Page>(server.url, 'POST', '/api/v1/pages', auth, {
                name: token,
                site_id: site.id,
                blocks: [{ block_id: block.id, placeholder_values: { title: token } }],
              });
              if (r.status === 201) pages.set(r.body.id, token);
              else if (r.status >= 500) serverError(r);
            } else if (n % 2 === 0 || lines.size === 0) {
              // Parallel inserts into one page, at its head and middle: each takes the page's lock.
              const r = await call(server.url, 'POST', `/api/v1/pages/${shared.id}/blocks`, auth, {
                position: randomInt(0, Math.min(3, lines.size) + 1),
                blocks: [{ block_id: block.id, placeholder_values: { title: token } }],
              });
              if (r.status === 201) lines.add(token);
              else if (r.status >= 500) serverError(r);
            } else {
              // Moves between the inserts: the order changes under the others, the set never does.
              const page = await call<Page>(server.url, 'GET', `/api/v1/pages/${shared.id}?with_blocks=1`, auth);
              const blocks = page.body?.blocks ?? [];
              if (blocks.length < 2) continue;
              const r = await call(
                server.url,
                'PUT',
                `/api/v1/pages/${shared.id}/blocks/${blocks[randomInt(0, blocks.length)]!.id}/move`,
                auth,
                { position: randomInt(0, blocks.length) },
              );
              if (r.status >= 500) serverError(r);
            }
          } catch {
            return; // the connection died with the process: not acknowledged
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
      // Kill at a random point once enough writes are answered, with more in flight.
      const target = pages.size + lines.size + randomInt(20, 60);
      const deadline = Date.now() + 60_000;
      while (pages.size + lines.size < target && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, randomInt(5, 25)));
      }
      server.child.kill('SIGKILL');
      running = false;
      await Promise.all(writers);
      await exited(server.child);

      const database = await openDatabase({ databaseUrl, databaseSchema: schema, dataDir });
      const violations = await checkIntegrity(database.db);
      await database.close();
      if (violations.length) {
        failures++;
        console.error(`cycle ${cycle}: broken invariants`, JSON.stringify(violations));
      }

      server = await start(dataDir);
      for (const [id, name] of pages) {
        const r = await call<Page>(server.url, 'GET', `/api/v1/pages/${id}?with_blocks=1`, auth);
        if (r.status !== 200 || r.body.name !== name || r.body.blocks?.[0]?.placeholder_values?.title !== name) {
          lost++;
          console.error(`lost page ${id} (${name}): ${r.status}`);
        }
      }
      const after = await call<Page>(server.url, 'GET', `/api/v1/pages/${history.id}`, auth);
      if (after.body.version < historyVersion) {
        lost++;
        console.error(`lost versions of page ${history.id}: ${after.body.version} < ${historyVersion} acknowledged`);
      }
      const page = await call<Page>(server.url, 'GET', `/api/v1/pages/${shared.id}?with_blocks=1`, auth);
      const present = new Set((page.body.blocks ?? []).map((b) => b.placeholder_values.title));
      for (const line of lines) {
        if (!present.has(line)) {
          lost++;
          console.error(`lost instance ${line}`);
        }
      }
      acked = pages.size + lines.size;
      console.info(`cycle ${cycle}: killed after ${acked} acknowledged writes so far; lost ${lost}`);
    }
    server.child.kill('SIGTERM');
    await exited(server.child);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(built, { recursive: true, force: true });
    if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
  }
  const where = databaseUrl ? 'PostgreSQL' : 'SQLite';
  console.info(
    `crash test (${where}): ${CYCLES} kills, ${acked} writes acknowledged, ${lost} lost, ${failures} failures`,
  );
  if (lost || failures) process.exit(1);
}

await main();
