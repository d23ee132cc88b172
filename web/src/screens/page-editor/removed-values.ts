/**
 * The values a major replacement loses. The service names removed fields as
 * paths through the old schema: `title`, `author.name` (a field of an object),
 * `items[].caption` (a field of each item of an array), `grid[][].x`.
 */
export interface LostValue {
  /** Where the value is, with real indexes: `items[1].caption`. */
  path: string;
  value: unknown;
}

type Visit = (parent: Record<string, unknown>, key: string, path: string) => void;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function visit(node: unknown, segments: string[], at: string, found: Visit): void {
  const [segment, ...rest] = segments;
  const parts = segment === undefined ? null : /^([^[\]]+)((?:\[\])*)$/.exec(segment);
  if (!parts || !isObject(node) || !Object.hasOwn(node, parts[1]!)) return;
  const key = parts[1]!;
  const here = at ? `${at}.${key}` : key;
  const depth = parts[2]!.length / 2;
  if (rest.length === 0) {
    if (depth === 0) found(node, key, here);
    return;
  }
  let nodes: [unknown, string][] = [[node[key], here]];
  for (let level = 0; level < depth; level++)
    nodes = nodes.flatMap(([value, path]) =>
      Array.isArray(value) ? value.map((item, i): [unknown, string] => [item, `${path}[${i}]`]) : [],
    );
  for (const [value, path] of nodes) visit(value, rest, path, found);
}

/** Every value found at the removed paths, in the order of the paths. */
export function lostValues(values: Record<string, unknown>, removed: string[]): LostValue[] {
  const lost: LostValue[] = [];
  for (const path of removed)
    visit(values, path.split('.'), '', (parent, key, at) => {
      if (parent[key] !== undefined) lost.push({ path: at, value: parent[key] });
    });
  return lost;
}

/** A copy of `values` without the removed paths: what can be carried over to the new version. */
export function keptValues(values: Record<string, unknown>, removed: string[]): Record<string, unknown> {
  const copy = structuredClone(values);
  for (const path of removed) visit(copy, path.split('.'), '', (parent, key) => delete parent[key]);
  return copy;
}

/** A value as one short line for people. */
export function showValue(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
