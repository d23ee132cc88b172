/**
 * kill -9 during an upgrade everywhere: the service is a real process, asked
 * to upgrade one block on 200 pages (a minor with a derive step, so that every
 * instance's pin and values change), and killed with SIGKILL at a random
 * moment, several rounds: half of them a random time after the upgrade's
 * transaction was seen open (PostgreSQL: its lock on upgrade_sets; SQLite: the
 * database's write lock held), half a random time after the request. Started
 * again on the same data, every page is either fully on its old version or
 * fully on its new one (its row's version, every instance's pin and values,
 * and its latest version's row), all pages on the same side with the set kept
 * exactly when they moved, and the integrity check passes. On the configured
 * database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Libsql from 'libsql';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { dropPostgresSchema } from '../../src/db/dialects/postgres.js';
import { checkIntegrity } from '../../src/db/integrity.js';
import { client } from '../support/client.js';
import type { TestApp } from '../support/app.js';
import { newSite, newUser } from '../support/factories.js';

const ROUNDS = Number(process.env.UPGRADE_CRASH_ROUNDS ?? 4);
const PAGES = 200;
const PER_PAGE = 5;
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : undefined;
let dataDir: string | undefined;
let child: ChildProcess | undefined;

afterAll(async () => {
  child?.kill('SIGKILL');
  if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<string> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_SCHEMA: schema ?? '',
      LOG_LEVEL: 'info',
      WEB_DIR: 'test/fixtures/web-dist',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  let output = '';
  server.stderr.on('data', (chunk) => (output += String(chunk)));
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listen line in: ${output}`)), 90_000);
    server.stdout.on('data', (chunk) => {
      output += String(chunk);
      const url = /listening at (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    server.on('exit', (code) => reject(new Error(`exited with ${code} before listening: ${output}`)));
  });
}

async function kill(): Promise<void> {
  const server = child!;
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGKILL');
  await exited;
}

/**
 * Is a write transaction open? On PostgreSQL, the upgrade's: its first
 * statement inserts into upgrade_sets, whose lock it holds to its end. On
 * SQLite, anyone's: the write lock is taken (nothing else writes meanwhile).
 */
function transactionProbe(): { open(): Promise<boolean>; close(): Promise<void> } {
  if (databaseUrl) {
    const db = new pg.Client({ connectionString: databaseUrl });
    const connected = db.connect();
    return {
      async open() {
        await connected;
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
             join pg_namespace s on s.oid = c.relnamespace
           where s.nspname = $1 and c.relname = 'upgrade_sets' and l.mode = 'RowExclusiveLock' and l.granted`,
          [schema],
        );
        return rows[0]!.n > 0;
      },
      close: () => db.end(),
    };
  }
  const db = new Libsql(join(dataDir!, 'pageblocks.sqlite'));
  db.pragma('busy_timeout = 0');
  return {
    async open() {
      try {
        db.exec('begin immediate');
      } catch (error) {
        if (String((error as { code?: string }).code).startsWith('SQLITE_BUSY')) return true;
        throw error;
      }
      db.exec('rollback');
      return false;
    },
    close: async () => void db.close(),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Stored {
  versions: Map<number, number>;
  /** Each page's instances in order: id, revision, title. */
  instances: Map<number, Array<{ id: number; revision_id: number; title: string }>>;
  sets: number;
}

/** The pages as stored, read past the service; and the integrity check's findings. */
async function stored(pageIds: number[]): Promise<Stored & { violations: unknown[] }> {
  const database = await openDatabase({ databaseUrl, databaseSchema: schema, dataDir: dataDir! });
  try {
    const db = database.db;
    const pages = await db.selectFrom('pages').select(['id', 'version']).where('id', 'in', pageIds).execute();
    const rows = await db
      .selectFrom('page_blocks')
      .select(['id', 'page_id', 'revision_id', 'placeholder_values'])
      .where('page_id', 'in', pageIds)
      .orderBy('page_id')
      .orderBy('order_index')
      .execute();
    const instances = new Map<number, Array<{ id: number; revision_id: number; title: string }>>();
    for (const r of rows) {
      const values = typeof r.placeholder_values === 'string' ? JSON.parse(r.placeholder_values) : r.placeholder_values;
      instances.set(r.page_id, [
        ...(instances.get(r.page_id) ?? []),
        { id: r.id, revision_id: r.revision_id, title: values.title },
      ]);
    }
    const { n } = await db
      .selectFrom('upgrade_sets')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return {
      versions: new Map(pages.map((p) => [p.id, p.version])),
      instances,
      sets: Number(n),
      violations: await checkIntegrity(db),
    };
  } finally {
    await database.close();
  }
}

it('a kill -9 during an upgrade everywhere leaves every page on its old version or every page on its new one', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pageblocks-upgrade-crash-'));
  let url = await start();
  let api = client(url) as unknown as TestApp;
  const user = await newUser(api);
  const site = await newSite(api, user);
  const block = (
    await api.call('POST', '/api/v1/blocks', {
      key: user.key,
      body: {
        name: 'Line',
        template: '<p>{{ title }}</p>',
        schema_content: [{ name: 'title', type: 'string', required: true, max_length: 60 }],
      },
    })
  ).body;
  const pageIds: number[] = [];
  for (let p = 0; p < PAGES; p++) {
    const blocks = Array.from({ length: PER_PAGE }, (_, i) => ({
      block_id: block.id,
      placeholder_values: { title: `page ${p} line ${i}` },
    }));
    const page = await api.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: `Page ${p}`, site_id: site.id, blocks },
    });
    expect(page.status).toBe(201);
    pageIds.push(page.body.id);
  }
  // 1.1: a new template, and a derive that changes every instance's values.
  const updated = await api.call('PUT', `/api/v1/blocks/${block.id}`, {
    key: user.key,
    body: {
      template: '<p class="line">{{ title }}</p>',
      migrations: [{ op: 'derive', to: 'title', expression: '{{ title | upcase }}' }],
    },
  });
  expect(updated.status).toBe(200);
  expect(updated.body.version_bump).toBe('minor');
  const upgrade = () => api.call('POST', `/api/v1/blocks/${block.id}/upgrades`, { key: user.key, body: {} });

  const probe = transactionProbe();
  try {
    // A request, and when its transaction was seen open: on two probes in a row, a few ms apart (SQLite's
    // probe sees any writer, and the service's other writes, such as an API key's use, hold the lock a moment).
    const timed = () => {
      const t0 = performance.now();
      let opened: number | undefined;
      let seen: number | undefined;
      let answered: number | undefined;
      const request = upgrade().then(
        (r) => ((answered = performance.now()), r),
        () => ((answered = performance.now()), undefined),
      );
      return {
        t0,
        request,
        opened: () => opened,
        answered: () => answered,
        async look() {
          const now = performance.now();
          if (opened !== undefined || !(await probe.open())) return void (seen = undefined);
          if (seen !== undefined && now - seen >= 3) opened = seen;
          else seen ??= now;
        },
      };
    };
    // How long the request takes, and its transaction: measured on one left to finish, then reverted.
    const whole = timed();
    while (whole.answered() === undefined) {
      await whole.look();
      await sleep(1);
    }
    const done = await whole.request;
    expect(done?.body.upgraded).toHaveLength(PAGES * PER_PAGE);
    const total = whole.answered()! - whole.t0;
    const inTransaction = whole.answered()! - (whole.opened() ?? whole.t0);
    expect(
      (await api.call('POST', `/api/v1/upgrade-sets/${done!.body.id}/revert`, { key: user.key, body: {} })).status,
    ).toBe(200);

    let baseline = await stored(pageIds);
    expect(baseline.violations).toEqual([]);
    const oldRevision = baseline.instances.get(pageIds[0]!)![0]!.revision_id;
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const run = timed();
      const afterOpen = round % 2 === 0;
      const delay = Math.random() * (afterOpen ? inTransaction * 0.8 : total);
      let killedAt: number | undefined;
      while (killedAt === undefined) {
        const now = performance.now();
        if (run.answered() !== undefined) killedAt = now;
        else if (!afterOpen && now - run.t0 >= delay) killedAt = now;
        else if (afterOpen && run.opened() !== undefined && now - run.opened()! >= delay) killedAt = now;
        else {
          if (afterOpen) await run.look();
          await sleep(1);
        }
      }
      const midway = run.opened() !== undefined && run.answered() === undefined;
      await kill();
      await run.request;

      url = await start();
      api = client(url) as unknown as TestApp;
      const after = await stored(pageIds);
      expect(after.violations).toEqual([]);
      const sides = new Set<string>();
      for (const id of pageIds) {
        const before = baseline.instances.get(id)!;
        const now = after.instances.get(id)!;
        expect(now.map((i) => i.id)).toEqual(before.map((i) => i.id));
        const version = after.versions.get(id)!;
        const onOld =
          version === baseline.versions.get(id) &&
          now.every((i, k) => i.revision_id === oldRevision && i.title === before[k]!.title);
        const onNew =
          version === baseline.versions.get(id)! + 1 &&
          now.every((i, k) => i.revision_id !== oldRevision && i.title === before[k]!.title.toUpperCase());
        expect(onOld || onNew, `page ${id}: version ${version}, ${JSON.stringify(now)}`).toBe(true);
        sides.add(onOld ? 'old' : 'new');
      }
      expect([...sides], 'every page on the same side').toHaveLength(1);
      const side = [...sides][0]!;
      expect(after.sets).toBe(baseline.sets + (side === 'new' ? 1 : 0));
      outcomes.push(`${midway ? 'killed inside the transaction' : 'killed outside it'}: ${side}`);

      if (side === 'new') {
        // Back to the old revision for the next round (each page one more version).
        const sets = await api.call('GET', `/api/v1/blocks/${block.id}/upgrades`, { key: user.key });
        const reverted = await api.call('POST', `/api/v1/upgrade-sets/${sets.body.data[0].id}/revert`, {
          key: user.key,
          body: {},
        });
        expect(reverted.status).toBe(200);
      }
      baseline = await stored(pageIds);
      expect(baseline.instances.get(pageIds[0]!)![0]!.revision_id).toBe(oldRevision);
    }
    if (process.env.UPGRADE_CRASH_LOG) console.log(outcomes);
    // The case this test is for happened: a kill while the set's transaction was open.
    expect(
      outcomes.some((o) => o.startsWith('killed inside')),
      outcomes.join('; '),
    ).toBe(true);
  } finally {
    await probe.close();
  }
}, 600_000);
