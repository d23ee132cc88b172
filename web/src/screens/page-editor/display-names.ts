import { treeRows } from './nesting';

interface Named {
  id: number;
  parent_page_block_id: number | null;
  block: { name: string; kind?: string };
}

/**
 * Each instance's name for people, by instance id: its block's name, and where
 * the block stands on the page more than once, numbered in the list's order
 * ("Hero 1", "Hero 2"). Every control, option and announcement about an
 * instance says it, so two instances of one block never share a control's
 * name, and no internal id is ever shown to tell them apart.
 */
export function displayNames(blocks: Named[]): Record<number, string> {
  const rows = treeRows(blocks);
  const total = new Map<string, number>();
  for (const { instance } of rows) total.set(instance.block.name, (total.get(instance.block.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  const names: Record<number, string> = {};
  for (const { instance } of rows) {
    const name = instance.block.name;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    names[instance.id] = total.get(name)! > 1 ? `${name} ${n}` : name;
  }
  // An instance outside the tree (its parent gone): its plain name.
  for (const b of blocks) names[b.id] ??= b.block.name;
  return names;
}
