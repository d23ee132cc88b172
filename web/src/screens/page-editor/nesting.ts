/**
 * The page's instances as a tree. The service keeps one flat order for the
 * whole page and a parent per instance (a layout instance); a layout renders
 * its children in their flat order. These functions turn a change of the tree
 * (a place among siblings, another parent) into the service's move: a flat
 * position and a parent.
 */
export interface Node {
  id: number;
  parent_page_block_id: number | null;
  block: { kind?: string };
}

export interface Row<T extends Node> {
  instance: T;
  depth: number;
  /** The ids of the instance's siblings (same parent), in order, itself included. */
  siblings: number[];
}

/** The parent as the tree sees it: one missing from the page counts as none (the renderer does the same). */
function parentOf<T extends Node>(instance: T, ids: Set<number>): number | null {
  const parent = instance.parent_page_block_id;
  return parent !== null && parent !== instance.id && ids.has(parent) ? parent : null;
}

/** Depth-first: each layout followed by its children, indented; siblings in the page's flat order. */
export function treeRows<T extends Node>(flat: T[]): Row<T>[] {
  const ids = new Set(flat.map((i) => i.id));
  const childrenOf = new Map<number | null, T[]>();
  for (const instance of flat) {
    const parent = parentOf(instance, ids);
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), instance]);
  }
  const rows: Row<T>[] = [];
  const seen = new Set<number>();
  const visit = (parent: number | null, depth: number) => {
    const children = childrenOf.get(parent) ?? [];
    const siblings = children.map((c) => c.id);
    for (const instance of children) {
      if (seen.has(instance.id)) continue;
      seen.add(instance.id);
      rows.push({ instance, depth, siblings });
      visit(instance.id, depth + 1);
    }
  };
  visit(null, 0);
  return rows;
}

/** The instance and everything nested in it, at any depth. */
export function subtree<T extends Node>(flat: T[], id: number): Set<number> {
  const out = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const i of flat)
      if (i.parent_page_block_id !== null && out.has(i.parent_page_block_id) && !out.has(i.id)) {
        out.add(i.id);
        grew = true;
      }
  }
  return out;
}

/** Layout instances `id` may move into: not itself, nor one nested in it. */
export function layoutTargets<T extends Node>(flat: T[], id: number | null): T[] {
  const inside = id === null ? new Set<number>() : subtree(flat, id);
  return flat.filter((i) => i.block.kind === 'layout' && !inside.has(i.id));
}

export interface Move {
  pbId: number;
  position: number;
  /** Present only when the parent changes; null takes it out of its layout. */
  parent?: number | null;
}

/** One step up or down among its siblings: the flat position of the sibling it passes. */
export function stepMove<T extends Node>(flat: T[], id: number, step: -1 | 1): Move | null {
  const row = treeRows(flat).find((r) => r.instance.id === id);
  if (!row) return null;
  const at = row.siblings.indexOf(id);
  const other = row.siblings[at + step];
  if (other === undefined) return null;
  return { pbId: id, position: flat.findIndex((i) => i.id === other) };
}

/**
 * Into a layout (at the end of its children), or out of any layout (null:
 * right after the layout it leaves, among the page's top-level blocks).
 */
export function reparentMove<T extends Node>(flat: T[], id: number, parent: number | null): Move | null {
  const instance = flat.find((i) => i.id === id);
  if (!instance || (instance.parent_page_block_id ?? null) === parent) return null;
  const rest = flat.filter((i) => i.id !== id);
  let after: number | undefined;
  if (parent === null) {
    // After the top-level ancestor it leaves and all that is nested there.
    let top = instance;
    while (top.parent_page_block_id !== null) {
      const up = flat.find((i) => i.id === top.parent_page_block_id);
      if (!up) break;
      top = up;
    }
    const inside = subtree(flat, top.id);
    inside.delete(id);
    after = Math.max(...rest.flatMap((i, index) => (inside.has(i.id) ? [index] : [])));
  } else {
    const siblings = rest.flatMap((i, index) => (i.parent_page_block_id === parent ? [index] : []));
    after = siblings.length ? Math.max(...siblings) : rest.findIndex((i) => i.id === parent);
  }
  return { pbId: id, position: after + 1, parent };
}

/**
 * A drop of `activeId` on the row `overId` (a place among that row's
 * siblings) or on a layout's drop zone (`into` set: the end of its children).
 */
export function dropMove<T extends Node>(
  flat: T[],
  activeId: number,
  over: { id: number; into?: boolean } | null,
): Move | null {
  if (!over || over.id === activeId) return null;
  if (over.into) return subtree(flat, activeId).has(over.id) ? null : reparentMove(flat, activeId, over.id);
  const target = flat.find((i) => i.id === over.id);
  const active = flat.find((i) => i.id === activeId);
  if (!target || !active) return null;
  const parent = target.parent_page_block_id ?? null;
  // Never into itself or its own children.
  if (parent !== null && subtree(flat, activeId).has(parent)) return null;
  const position = flat.findIndex((i) => i.id === over.id);
  return (active.parent_page_block_id ?? null) === parent
    ? { pbId: activeId, position }
    : { pbId: activeId, position, parent };
}
