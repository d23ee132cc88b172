/**
 * A version diff (`GET /pages/{id}/versions/{n}/diff`) in words a person
 * reads: each value by its block's name and its fields' labels
 * ("Hero › Items 1 › Title"), not by its API path
 * (`blocks[2].placeholder_values.items[0].title`).
 */

/** The part of a field schema that names things: a property's title, an array's items. */
export interface SchemaNode {
  title?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode | SchemaNode[];
}

/** What the labels are made from: a block's name and its fields' schema, by its place in the version compared with. */
export interface PlacedBlock {
  name: string;
  schema: SchemaNode | undefined;
}

export interface ValueChange {
  path: string;
  old?: unknown;
  new?: unknown;
}

const METADATA_LABELS: Record<string, string> = {
  name: 'Name',
  slug: 'Slug',
  kind: 'Kind',
  site_id: 'Site',
  folder_id: 'Folder',
  meta_title: 'Meta title',
  meta_description: 'Meta description',
  meta_keywords: 'Meta keywords',
  meta_robots: 'Meta robots',
};

/** A metadata field by its label in the page's details. */
export const metadataLabel = (field: string) => METADATA_LABELS[field] ?? humanize(field);

/** `heading_text` → "Heading text": a field without a title is still read as words. */
export function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

/** `blocks[2].placeholder_values.items[0]["odd key"]` → the block's index and the steps after it. */
export function parsePath(path: string): { index: number; area: string; steps: (string | number)[] } | null {
  const head = /^blocks\[(\d+)\]\.(placeholder_values|bindings)/.exec(path);
  if (!head) return null;
  const steps: (string | number)[] = [];
  const rest = path.slice(head[0].length);
  const step = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < rest.length) {
    step.lastIndex = at;
    const match = step.exec(rest);
    if (!match) return null;
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else steps.push(JSON.parse(match[3]!) as string);
    at = step.lastIndex;
  }
  return { index: Number(head[1]), area: head[2]!, steps };
}

/** The words of a value's place: the block's name, then each field's label (list items counted from 1). */
export function valueLabel(path: string, blocks: (PlacedBlock | undefined)[]): string {
  const parsed = parsePath(path);
  if (!parsed) return path;
  const block = blocks[parsed.index];
  const words = [block?.name ?? `Block ${parsed.index + 1}`];
  if (parsed.area === 'bindings') words.push('Live data');
  let node: SchemaNode | undefined = parsed.area === 'placeholder_values' ? block?.schema : undefined;
  for (const step of parsed.steps) {
    if (typeof step === 'number') {
      const item = Array.isArray(node?.items) ? node.items[step] : node?.items;
      words[words.length - 1] = `${words[words.length - 1]} ${step + 1}`;
      node = item;
    } else {
      const child: SchemaNode | undefined = node?.properties?.[step];
      words.push(child?.title ?? humanize(step));
      node = child;
    }
  }
  return words.join(' › ');
}

/** A value as a short line of text: strings as they are, the rest as JSON, cut at `max` characters. */
export function shortValue(value: unknown, max = 80): string {
  if (value === undefined) return '(none)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === '') return '(empty)';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
