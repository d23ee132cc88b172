import fc from 'fast-check';
import { checkIntegrity } from '../../src/db/integrity.js';
import { databaseDiff } from './db-check.js';
import { allowed, send, succeeded, type Answer, type Real } from './real.js';
import type { Planned, Planner, StepSpec } from './step.js';
import { cloneWorld, type World } from './world.js';

/** A step's failure in a race: a write that lost to a delete may say so as a 404, a 409 or a 422. */
const RACE_LOSSES = [404, 409, 422];

export interface Runner {
  planners: Record<string, Planner>;
  /** Runs the integrity check every this many steps (1: after every step). */
  integrityEvery: number;
  steps: { count: number };
  /** Answers by operation and status (`createPage 201`), for the run's summary. */
  tally: Map<string, number>;
  /** Milliseconds spent in calls, and in checking the database. */
  time: { calls: number; checks: number };
}

const describe = (s: StepSpec) =>
  `${s.op}(who ${s.who}, a ${s.a}, b ${s.b}, c ${s.c}, d ${s.d}, via ${s.via}${s.dry ? ', dry' : ''}${s.fault ? `, fault ${s.fault}` : ''})`;

const callText = (p: Planned, a?: Answer) =>
  `${p.call.via}${p.call.admin ? ' admin' : ''} user ${p.call.who}: ${p.call.method} ${p.call.path}` +
  `${p.call.query ? ` ${JSON.stringify(p.call.query)}` : ''}${p.call.body !== undefined ? ` ${JSON.stringify(p.call.body)}` : ''}` +
  `${p.call.providerFailure ? ` (provider fails: ${p.call.providerFailure})` : ''}` +
  (a ? ` → ${a.status} ${a.text.slice(0, 300)}` : '');

/**
 * One step of a sequence: a single call, or two or three at once. The answers
 * must be those of the calls run one after another in some order (each
 * checked against the model as that order leaves it), and the database must
 * then be the model.
 */
export class StepCommand implements fc.AsyncCommand<World, Real> {
  private ran = '';
  constructor(
    private readonly runner: Runner,
    readonly specs: StepSpec[],
  ) {}

  check = () => true;

  async run(model: World, real: Real): Promise<void> {
    this.ran = '';
    const plans = this.specs.map((s) => this.runner.planners[s.op]!(model, s));
    const parallel = plans.length > 1;
    // A provider failure is queued for the next call to the provider: only a call alone knows it is that one.
    if (parallel) for (const p of plans) delete p.call.providerFailure;
    const failure = plans[0]!.call.providerFailure;
    if (failure) {
      // Queued only for a call that reaches the provider: a failure no call takes would fail a later one.
      delete plans[0]!.call.providerFailure;
      const reaches = plans[0]!.expect(model).statuses.some((s) => s === 200 || s === 502);
      if (reaches) {
        plans[0]!.call.providerFailure = failure;
        real.fake.failNext(failure);
      }
    }
    const sent = performance.now();
    const answers = await Promise.all(plans.map((p) => send(real, p.call)));
    const checked = performance.now();
    this.runner.time.calls += checked - sent;
    this.ran = plans.map((p, i) => callText(p, answers[i])).join('\n    || ');
    const explained = linearize(model, plans, answers, parallel);
    const at = `call ${this.runner.steps.count + 1} of the run`;
    if (typeof explained === 'string') {
      // A 500 says only its request id: the server's log line for it says why.
      const logged = answers.flatMap((a) => (a.status >= 500 ? [real.serverError(a.body?.request_id)] : []));
      throw new Error(`${explained}\n  step (${at}): ${this.ran}${logged.map((l) => `\n  server log: ${l}`).join('')}`);
    }
    this.runner.steps.count += plans.length;
    this.specs.forEach((s, i) => {
      const key = `${s.op}${parallel ? ' (parallel)' : ''} ${answers[i]!.status}`;
      this.runner.tally.set(key, (this.runner.tally.get(key) ?? 0) + 1);
      if (process.env.MODEL_TRACE === '1') console.info(key, callText(plans[i]!, answers[i]).slice(0, 200));
    });

    // Calls made at once whose answers more than one order explains (two identical writes) leave the
    // database as the order they really committed in: the model is the explaining order the database shows.
    const userIds = real.users.map((u) => u.id);
    let diffs: string[] = [];
    for (const [i, world] of explained.entries()) {
      const found = await databaseDiff(real.t.app.database.db, world, userIds);
      if (i === 0 || !found.length) diffs = found;
      if (!found.length) {
        Object.assign(model, world);
        break;
      }
    }
    if (diffs.length) Object.assign(model, explained[0]!);
    if (diffs.length)
      throw new Error(`the database is not the model after (${at})\n  ${this.ran}\n  ${diffs.join('\n  ')}`);
    if (parallel || this.runner.steps.count % this.runner.integrityEvery === 0) {
      // The history's comparison for this sequence's users: the rest of the check covers every row.
      const violations = await checkIntegrity(real.t.app.database.db, { owners: userIds });
      if (violations.length)
        throw new Error(`integrity after (${at}) ${this.ran}: ${JSON.stringify(violations).slice(0, 2000)}`);
    }
    this.runner.time.checks += performance.now() - checked;
  }

  toString() {
    return `${this.specs.map(describe).join(' || ')}${this.ran ? ` /* ${this.ran} */` : ''}`;
  }
}

/**
 * The worlds after the answers, one for each order of the calls that explains them all;
 * otherwise why not (every order tried).
 */
function linearize(model: World, plans: Planned[], answers: Answer[], parallel: boolean): World[] | string {
  const reasons: string[] = [];
  const worlds: World[] = [];
  for (const order of permutations(plans.map((_, i) => i))) {
    const world = cloneWorld(model);
    const why = replay(world, order, plans, answers, parallel ? model : undefined);
    if (!why) worlds.push(world);
    else reasons.push(`${parallel ? `in the order ${order.join(', ')}: ` : ''}${why}`);
  }
  return worlds.length ? worlds : reasons.join('\n  ');
}

/**
 * Replays the answers in `order` over `world`. In a parallel step (`before`
 * is the world before it), a call that loses a race (its outcome alone
 * would differ) may answer any of RACE_LOSSES, and a delete of an object
 * another call of the step deleted may answer 204 as it would have alone
 * (DELETE is idempotent), changing nothing more. A call that shares its
 * claim with another call of the step (two publications of one page) may
 * find it held and answer 409, changing nothing.
 */
function replay(world: World, order: number[], plans: Planned[], answers: Answer[], before?: World): string | null {
  for (const i of order) {
    const plan = plans[i]!;
    const answer = answers[i]!;
    const expected = plan.expect(world);
    // Only a call whose outcome another call of the step changed has lost a race.
    const alone = before && plan.expect(before).statuses;
    const raced = alone !== undefined && alone.join() !== expected.statuses.join();
    const statuses = raced && expected.statuses.every((s) => RACE_LOSSES.includes(s)) ? RACE_LOSSES : expected.statuses;
    if (raced && plan.call.method === 'DELETE' && answer.status === 204 && alone.includes(204)) continue;
    if (before && answer.status === 409 && plan.claims && plans.some((p) => p !== plan && p.claims === plan.claims))
      continue;
    if (!allowed(answer, statuses)) {
      return `call ${i} answered ${answer.status}, the model expects ${expected.statuses.join(' or ')}`;
    }
    if (!succeeded(answer)) continue;
    try {
      expected.check?.(world, answer.body);
    } catch (error) {
      return `call ${i}: ${(error as Error).message}`;
    }
    if (!plan.dry) expected.apply?.(world, answer.body);
  }
  return null;
}

function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}
