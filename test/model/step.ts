import { all, NEVER, type World } from './world.js';

/** Where a call goes: `/api/v1` with the user's key, `/api` with the session cookie, or an MCP tool over `/api/v1/mcp`. */
export type Via = 'key' | 'cookie' | 'mcp';

/** A step as fast-check draws it: which operation, by whom, and numbers the operation reads its choices from. */
export interface StepSpec {
  op: string;
  who: number;
  /** Choices (targets, positions, variants), each read modulo what the model holds at run time. */
  a: number;
  b: number;
  c: number;
  d: number;
  via: number;
  dry: boolean;
  /** 0: a well-formed call; otherwise one fault the operation knows (an invalid body, a bad slug...). */
  fault: number;
}

export interface Call {
  who: number;
  via: Via;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the contour's prefix (`/pages/3`), or from `/api` when `admin` (`/admin/blocks`, cookie only). */
  path: string;
  admin?: boolean;
  /** The MCP tool that is this route, and its path arguments by name. */
  tool?: string;
  pathArgs?: Record<string, number>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** The version the write expects (`If-Match`; MCP: `expected_version`). */
  ifMatch?: number;
  /** A provider failure queued just before the call (serial steps only). */
  providerFailure?: '500' | '401' | 'malformed';
}

/** What the model says of a call, in a given state. */
export interface Expect {
  /** The statuses it may answer. */
  statuses: number[];
  /** On success (and not a dry run): the model's change, from the answer where it names new ids. */
  apply?: (w: World, body: any) => void;
  /** On success: what the answer must show (reads); throws when it does not. */
  check?: (w: World, body: any) => void;
}

export interface Planned {
  call: Call;
  dry: boolean;
  /** Evaluated against the state the call is linearized after (for a parallel step, each ordering). */
  expect: (w: World) => Expect;
  /**
   * What the call holds exclusively while it runs (`publication of page 3`):
   * in a parallel step, a call sharing it with another may find it taken and
   * answer 409, changing nothing.
   */
  claims?: string;
}

export type Planner = (w: World, s: StepSpec) => Planned;

export const VIAS: Via[] = ['key', 'cookie', 'mcp'];
/** The contour of a step; an operation with no MCP tool goes over the key instead. */
export const viaOf = (s: StepSpec, hasTool: boolean): Via => {
  const via = VIAS[s.via % VIAS.length]!;
  return via === 'mcp' && !hasTool ? 'key' : via;
};

/**
 * An id to act on, from `n`: mostly one of the user's own objects (`mine`:
 * owned, by default), sometimes another user's, one deleted in this
 * sequence, or one that never existed. `none` when the user has none of
 * their own (null: the field is left out).
 */
export function pick<T extends { id: number; owner: number }>(
  w: World,
  record: Record<number, T>,
  gone: number[],
  who: number,
  n: number,
  mine: (o: T) => boolean = (o) => o.owner === who,
  none: number | null = NEVER,
): number {
  const r = n % 20;
  const index = Math.floor(n / 20);
  const choose = (ids: number[]) => (ids.length ? ids[index % ids.length]! : NEVER);
  const objects = all(record);
  if (r < 16) {
    const own = objects.filter(mine).map((o) => o.id);
    return own.length ? own[index % own.length]! : (none as number);
  }
  if (r < 18) return choose(objects.filter((o) => !mine(o)).map((o) => o.id));
  if (r < 19) return choose(gone);
  return NEVER;
}

/** `n`-th of a list, or undefined. */
export const nth = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

export const ok = (status: number, apply?: Expect['apply'], check?: Expect['check']): Expect => ({
  statuses: [status],
  apply,
  check,
});
export const fail = (...statuses: number[]): Expect => ({ statuses });

/** Throws with what the answer showed and what the model holds. */
export function expectEqual(what: string, actual: unknown, expected: unknown) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: the answer shows ${a}, the model holds ${e}`);
}
