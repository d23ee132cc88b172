import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { admin, type TestUser } from '../support/factories.js';
import { StepCommand, type Runner } from './command.js';
import { CredentialCommand } from './credentials.js';
import { operations, REFERRERS, REMOVALS } from './ops/index.js';
import { newUsers, type Real } from './real.js';
import type { StepSpec } from './step.js';
import { ADMIN_INDEX, emptyWorld, schemaOf, templateOf, USERS, valuesFor, type World } from './world.js';

/**
 * Random sequences of operations by three users and an administrator, over
 * both contours (`/api/v1` with a key, `/api` with the session cookie) and
 * MCP, some steps two or three calls at once. After every step each answer
 * and the database match a small model of who owns what (`world.ts`); the
 * integrity check runs every MODEL_INTEGRITY_EVERY steps and after every
 * parallel one.
 *
 * MODEL_STEPS: at least this many calls (default 300; `.ci/run` 20,000).
 * MODEL_SEED: the first round's seed (default 1: `npm test` is repeatable).
 * MODEL_LENGTH: at most this many steps per sequence (default 60); each
 * sequence has its own users, over one app. A failure prints its round's
 * seed, fast-check's `path` and the commands' `replayPath` (in the
 * counterexample's last comment): `MODEL_SEED=<seed> MODEL_PATH=<path>
 * MODEL_REPLAY=<replayPath> npx vitest run test/model` replays that sequence
 * alone (on the same database). A 500 in a failure comes with the server's
 * log line for it; MODEL_TRACE=1 prints every call.
 */
const STEPS = Number(process.env.MODEL_STEPS ?? 300);
const SEED = Number(process.env.MODEL_SEED ?? 1);
const PATH = process.env.MODEL_PATH;
const REPLAY = process.env.MODEL_REPLAY;
const LENGTH = Number(process.env.MODEL_LENGTH ?? 60);
const INTEGRITY_EVERY = Number(process.env.MODEL_INTEGRITY_EVERY ?? 1);

let t: TestApp;
let fake: FakeFourcms;
let root: TestUser;
/** The server's error lines (pino's JSON), so that a failure can say why a call answered 500. */
const errorLines: string[] = [];
const serverError = (requestId: unknown) =>
  errorLines.find((line) => line.includes(`"request_id":"${String(requestId)}"`)) ??
  `(nothing logged for ${String(requestId)})`;
beforeAll(async () => {
  fake = await startFakeFourcms({ token: `model-${randomBytes(4).toString('hex')}` });
  t = await startApp({
    env: { LOG_LEVEL: 'error' },
    overrides: { providerTimeoutMs: 10_000, logStream: { write: (line: string) => void errorLines.push(line) } },
  });
  root = await admin(t);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const ops = () => operations({ url: () => fake.url, token: () => fake.token });

function commandArbitraries(runner: Runner) {
  const weighted = Object.entries(ops()).map(([op, { weight }]) => ({ weight, arbitrary: fc.constant(op) }));
  const choice = fc.nat(100_000);
  const spec = (op: fc.Arbitrary<string>) =>
    fc.record<StepSpec>({
      op,
      who: fc.nat(USERS - 1),
      a: choice,
      b: choice,
      c: choice,
      d: choice,
      via: fc.nat(2),
      dry: fc.nat(5).map((n) => n === 0),
      fault: fc.oneof(
        { weight: 7, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) },
      ),
    });
  const any = spec(fc.oneof(...weighted));
  // A removal and a write that refers to the same choice (the same site, block, page...), at once.
  const race = fc
    .tuple(spec(fc.constantFrom(...REMOVALS)), spec(fc.constantFrom(...REFERRERS)), fc.boolean())
    .map(([removal, write, removalFirst]) => {
      const aimed = { ...write, who: removal.who, a: removal.a, c: removal.c, d: removal.a, fault: 0, dry: false };
      return removalFirst ? [removal, aimed] : [aimed, removal];
    });
  // The same call twice (two creations of one slug in one site...), or two or three unrelated ones.
  const twins = any.map((s) => [s, { ...s, dry: false }]);
  const unrelated = fc.array(any, { minLength: 2, maxLength: 3 });
  const credential = fc
    .tuple(fc.nat(USERS - 1), fc.constantFrom<'key' | 'session'>('key', 'session'))
    .map(([who, what]) => new CredentialCommand(who, what));
  return [
    fc.oneof(
      { weight: 48, arbitrary: any.map((s) => new StepCommand(runner, [s])) },
      { weight: 8, arbitrary: race.map((specs) => new StepCommand(runner, specs)) },
      { weight: 4, arbitrary: twins.map((specs) => new StepCommand(runner, specs)) },
      { weight: 4, arbitrary: unrelated.map((specs) => new StepCommand(runner, specs)) },
      { weight: 1, arbitrary: credential },
    ),
  ];
}

/**
 * Each user starts with a site, a block (the administrator's global) and a
 * page of two instances of it, so that early steps have something to act on.
 */
async function seed(model: World, users: TestUser[]) {
  const created = async (path: string, body: unknown, as: { key?: string; cookie?: string }) => {
    const r = await t.call('POST', path, { ...as, body });
    if (r.status !== 201) throw new Error(`seeding ${path}: ${r.status} ${r.text}`);
    return r.body.id as number;
  };
  await Promise.all(
    users.map(async (user, owner) => {
      const site = await created('/api/v1/sites', { name: `${model.token} site` }, { key: user.key });
      model.sites[site] = { id: site, owner, provider: 'none' };
      const global = owner === ADMIN_INDEX;
      const body = {
        name: `${model.token} block`,
        template: templateOf('title', 1, 0),
        schema_content: schemaOf('title'),
      };
      const block = global
        ? await created('/api/admin/blocks', body, { cookie: user.cookie })
        : await created('/api/v1/blocks', body, { key: user.key });
      model.blocks[block] = {
        id: block,
        owner,
        scope: global ? 'global' : 'user',
        major: 1,
        minor: 0,
        field: 'title',
        edit: 1,
      };
      const values = { block_id: block, placeholder_values: valuesFor('title') };
      const page = await t.call('POST', '/api/v1/pages', {
        key: user.key,
        body: { name: `${model.token} page`, site_id: site, blocks: [values, values] },
      });
      if (page.status !== 201) throw new Error(`seeding a page: ${page.status} ${page.text}`);
      const instances = (page.body.blocks as { id: number }[]).map((i) => ({
        id: i.id,
        block,
        major: 1,
        minor: 0,
        field: 'title',
      }));
      model.pages[page.body.id] = {
        id: page.body.id,
        owner,
        site,
        folder: null,
        slug: null,
        instances,
        published: false,
        version: 1,
      };
    }),
  );
}

describe('random sequences of operations keep every user in their own world', () => {
  it(`matches the model over at least ${STEPS} calls`, async () => {
    const runner: Runner = {
      planners: Object.fromEntries(Object.entries(ops()).map(([op, { planner }]) => [op, planner])),
      integrityEvery: INTEGRITY_EVERY,
      steps: { count: 0 },
      tally: new Map(),
      time: { calls: 0, checks: 0 },
    };
    const started = Date.now();
    let sequences = 0;
    const setup = async (): Promise<{ model: World; real: Real }> => {
      sequences++;
      const users = await newUsers(t, root);
      const collections = await t.call('GET', '/api/v1/collections', { key: users[0]!.key, query: { limit: 1 } });
      const model = emptyWorld(`m${randomBytes(5).toString('hex')}`, collections.body.total);
      await seed(model, users);
      return { model, real: { t, fake, users, serverError } };
    };
    // Rounds of sequences until enough calls ran; each round its own seed, printed on failure.
    for (let round = 0; runner.steps.count < STEPS; round++) {
      const seed = SEED + round;
      const remaining = STEPS - runner.steps.count;
      await fc.assert(
        fc.asyncProperty(
          fc.commands(commandArbitraries(runner), {
            maxCommands: LENGTH,
            size: 'max',
            ...(REPLAY && { replayPath: REPLAY }),
          }),
          (commands) => fc.asyncModelRun(setup, commands),
        ),
        {
          seed,
          ...(PATH && { path: PATH }),
          numRuns: Math.max(1, Math.ceil(remaining / (LENGTH * 0.6))),
          endOnFailure: process.env.MODEL_SHRINK === '0',
        },
      );
      if (PATH) break;
    }
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `model: ${runner.steps.count} calls in ${sequences} sequences, ${seconds.toFixed(1)} s (${t.config.databaseSchema ? 'PostgreSQL' : 'SQLite'}, seed ${SEED}); ` +
        `${(runner.time.calls / 1000).toFixed(1)} s in calls, ${(runner.time.checks / 1000).toFixed(1)} s checking the database`,
    );
    if (process.env.MODEL_TALLY === '1') {
      console.info(
        [...runner.tally]
          .sort()
          .map(([k, n]) => `${k}: ${n}`)
          .join('\n'),
      );
    }
    expect(runner.steps.count).toBeGreaterThan(0);
  }, 3_600_000);
});
