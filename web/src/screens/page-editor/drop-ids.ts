/** dnd-kit ids of the page editor: an item is its instance id; a layout's drop zone is `into-<id>`. */

export const zoneId = (id: number) => `into-${id}`;

/** What a dnd-kit id points at: an instance, or (`into`) the drop zone inside a layout instance. */
export function overTarget(id: string | number | undefined): { id: number; into?: boolean } | null {
  if (id === undefined) return null;
  if (typeof id === 'string' && id.startsWith('into-')) return { id: Number(id.slice(5)), into: true };
  return { id: Number(id) };
}
