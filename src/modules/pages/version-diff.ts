import type { PageVersion, ValueChange, VersionDiff } from './history.js';
import { FIELD_NAMES } from './pages.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `a.b`, or `a["odd key"]` for a key that is not a plain name. */
const member = (path: string, key: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** Every leaf that differs between `a` and `b`, by its path under `path`: objects by key, arrays by index. */
export function valueChanges(path: string, a: unknown, b: unknown, into: ValueChange[] = []): ValueChange[] {
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const at = member(path, key);
      if (!(key in b)) into.push({ path: at, old: a[key] });
      else if (!(key in a)) into.push({ path: at, new: b[key] });
      else valueChanges(at, a[key], b[key], into);
    }
    return into;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const at = `${path}[${i}]`;
      if (i >= b.length) into.push({ path: at, old: a[i] });
      else if (i >= a.length) into.push({ path: at, new: b[i] });
      else valueChanges(at, a[i], b[i], into);
    }
    return into;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) into.push({ path, old: a, new: b });
  return into;
}

/** The ids of a longest run of `[id, old place]` whose old places increase: the instances that kept their order. */
function inOrder(items: ReadonlyArray<readonly [number, number]>): Set<number> {
  const tails: number[] = [];
  const previous: number[] = [];
  items.forEach(([, place], i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (items[tails[mid]!]![1] < place) lo = mid + 1;
      else hi = mid;
    }
    previous[i] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = i;
  });
  const ids = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i]!) ids.add(items[i]![0]);
  return ids;
}

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/**
 * What changed from version `from` to version `to`: instances added and
 * removed (by id), moved (their place or their parent), re-pinned, their values
 * and bindings by path (`blocks[2].placeholder_values.items[0].title`, the
 * place in `to`), and the page's metadata.
 */
export function diffVersions(from: PageVersion, to: PageVersion): VersionDiff {
  const before = new Map(from.instances.map((instance, index) => [instance.id, { instance, index }]));
  const after = new Set(to.instances.map((i) => i.id));
  const diff: VersionDiff = {
    from: from.number,
    to: to.number,
    blocks: { added: [], removed: [], moved: [], pins: [] },
    values: [],
    metadata: [],
  };
  // Moved: the fewest instances that, taken out and put back, give the new order (an insert elsewhere moves nothing).
  const stayed = inOrder(
    to.instances.flatMap((i) => (before.has(i.id) ? [[i.id, before.get(i.id)!.index] as const] : [])),
  );
  to.instances.forEach((instance, index) => {
    const old = before.get(instance.id);
    if (!old) {
      diff.blocks.added.push({ id: instance.id, index, block_id: instance.block_id });
      return;
    }
    const was = old.instance;
    if (!stayed.has(instance.id) || was.parent_page_block_id !== instance.parent_page_block_id)
      diff.blocks.moved.push({
        id: instance.id,
        from_index: old.index,
        to_index: index,
        from_parent: was.parent_page_block_id,
        to_parent: instance.parent_page_block_id,
      });
    if (was.revision_id !== instance.revision_id)
      diff.blocks.pins.push({
        id: instance.id,
        index,
        block_id: instance.block_id,
        from: was.version,
        to: instance.version,
      });
    if (was.placeholder_values_json !== instance.placeholder_values_json)
      valueChanges(
        `blocks[${index}].placeholder_values`,
        parse(was.placeholder_values_json),
        parse(instance.placeholder_values_json),
        diff.values,
      );
    if (was.bindings_json !== instance.bindings_json)
      valueChanges(
        `blocks[${index}].bindings`,
        parse(was.bindings_json) ?? {},
        parse(instance.bindings_json) ?? {},
        diff.values,
      );
  });
  from.instances.forEach((instance, index) => {
    if (!after.has(instance.id)) diff.blocks.removed.push({ id: instance.id, index, block_id: instance.block_id });
  });
  for (const field of FIELD_NAMES)
    if (from.fields[field] !== to.fields[field])
      diff.metadata.push({ field, old: from.fields[field], new: to.fields[field] });
  return diff;
}
