/**
 * The field mapping of a breaking save, without React: for each field the
 * save removes (the dry run's `removed_fields`: old names at any depth,
 * `author.name`, `items[].caption`), where its values may go among the fields
 * the save adds, which one is most likely meant ("heading is now title"), and
 * the `migrations` the user's answers make. The service checks the steps
 * again (a 422 at `migrations[i]…`), so this only offers what it would take.
 */
import type { EditorField } from './field-editor';
import type { FieldDefinition } from './field-types';

export type Kind = 'text' | 'number' | 'boolean' | 'list' | 'object' | 'binding';

/** A field of a revision at its path, as `removed_fields` writes paths (`[]` for a list's items). */
export interface FieldAt {
  path: string;
  def: FieldDefinition;
  kind: Kind;
  /** The path of the object holding it ('' at the top level): a move within it is a rename. */
  parent: string;
  /** How many lists deep: values go item to item, so only fields as deep take them. */
  lists: number;
}

/** What the user says of a removed field: its values go to another field, or are dropped. */
export type Choice = { to: string } | { drop: true } | null;

export interface Target extends FieldAt {
  /** Why its values cannot go there (null: they can). */
  refused: string | null;
  /** The step that takes them: a rename in the same object, a move elsewhere, a conversion to another kind. */
  op: 'rename' | 'move' | 'convert';
}

export interface MappingRow extends FieldAt {
  targets: Target[];
}

export type MigrationStep =
  { op: 'rename' | 'move' | 'convert'; from: string; to: string } | { op: 'drop'; from: string };

export function kindOf(def: FieldDefinition | undefined): Kind {
  switch (def?.type) {
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'list';
    case 'object':
      return 'object';
    case 'binding':
      return 'binding';
    default:
      return 'text';
  }
}

export const KIND_WORDS: Record<Kind, string> = {
  text: 'text',
  number: 'a number',
  boolean: 'yes or no',
  list: 'a list',
  object: 'a group of fields',
  binding: 'data from a source',
};

const asDefs = (value: unknown): FieldDefinition[] =>
  Array.isArray(value) ? value.filter((f): f is FieldDefinition => typeof f === 'object' && f !== null) : [];

/** Every field of a revision, at any depth, in order. */
export function fieldsAt(defs: unknown, prefix = '', lists = 0): FieldAt[] {
  const out: FieldAt[] = [];
  for (const def of asDefs(defs)) {
    if (typeof def.name !== 'string' || def.name === '') continue;
    const path = `${prefix}${def.name}`;
    out.push({ path, def, kind: kindOf(def), parent: prefix.replace(/\.$/, ''), lists });
    out.push(...inside(def, path, lists));
  }
  return out;
}

function inside(def: FieldDefinition, path: string, lists: number): FieldAt[] {
  if (def.type === 'object') return fieldsAt(def.fields, `${path}.`, lists);
  if (def.type === 'array' && typeof def.items === 'object' && def.items !== null)
    return inside(def.items as FieldDefinition, `${path}[]`, lists + 1);
  return [];
}

/** A list's items are converted one by one: a list of scalars converts, a list of objects or lists does not. */
const convertible = (field: FieldAt) =>
  field.kind === 'list'
    ? !['object', 'array'].includes(String((field.def.items as FieldDefinition | undefined)?.type))
    : field.kind !== 'object' && field.kind !== 'binding';

function target(from: FieldAt, to: FieldAt): Target {
  const same = from.kind === to.kind;
  const op = !same ? 'convert' : from.parent === to.parent ? 'rename' : 'move';
  let refused: string | null = null;
  if (to.kind === 'binding' || from.kind === 'binding') refused = 'bindings hold no values';
  else if (!same && !(convertible(from) && convertible(to)))
    refused = `${from.path} holds ${KIND_WORDS[from.kind]}, ${to.path} takes ${KIND_WORDS[to.kind]}`;
  return { ...to, op, refused };
}

/**
 * One row per removed field, with the fields its values may go to: those the
 * save adds (a field kept from before already holds its own values), as many
 * lists deep, the compatible ones first.
 */
export function mappingRows(removed: string[], before: unknown, after: unknown): MappingRow[] {
  const old = new Map(fieldsAt(before).map((f) => [f.path, f]));
  const added = fieldsAt(after).filter((f) => !old.has(f.path));
  return removed.flatMap((path) => {
    const field = old.get(path);
    if (!field) return [];
    const targets = added.filter((to) => to.lists === field.lists).map((to) => target(field, to));
    targets.sort((a, b) => Number(a.refused !== null) - Number(b.refused !== null));
    return [{ ...field, targets }];
  });
}

const labelOf = (def: FieldDefinition) => (typeof def.label === 'string' ? def.label.trim().toLowerCase() : '');

/**
 * The answers to start from: a field renamed in the editor goes to its new
 * name; otherwise, where one field of an object is removed and one field of a
 * kind that takes its values is added, or a removed and an added field share
 * a label, the new one is offered as its new name. Nothing else is guessed.
 */
export function guessChoices(rows: MappingRow[], fields: EditorField[]): Choice[] {
  const renamed = new Map(
    fields
      .filter((f) => f.original !== null && f.original !== f.def.name && typeof f.def.name === 'string')
      .map((f) => [f.original!, f.def.name as string]),
  );
  const usable = (row: MappingRow, to: string | undefined) =>
    to !== undefined && row.targets.some((t) => t.path === to && t.refused === null);
  const choices: Choice[] = rows.map((row) => {
    const to = renamed.get(row.path);
    return usable(row, to) ? { to: to! } : null;
  });
  const taken = () => new Set(choices.flatMap((c) => (c && 'to' in c ? [c.to] : [])));
  rows.forEach((row, i) => {
    if (choices[i]) return;
    const free = row.targets.filter((t) => t.refused === null && !taken().has(t.path));
    const label = labelOf(row.def);
    const byLabel = label ? free.find((t) => labelOf(t.def) === label) : undefined;
    const siblings = free.filter((t) => t.parent === row.parent);
    const alone = rows.filter((r, j) => r.parent === row.parent && !choices[j]).length === 1;
    const pick = byLabel ?? (alone && siblings.length === 1 ? siblings[0] : undefined);
    if (pick) choices[i] = { to: pick.path };
  });
  return choices;
}

/**
 * The `migrations` of the answers, one step per row in order, and for each
 * step its row (a 422 at `migrations[i]` is shown there). Null while a row is
 * unanswered.
 */
export function buildMigrations(
  rows: MappingRow[],
  choices: Choice[],
): { steps: MigrationStep[]; rowOf: number[] } | null {
  const steps: MigrationStep[] = [];
  const rowOf: number[] = [];
  for (const [i, row] of rows.entries()) {
    const choice = choices[i];
    if (!choice) return null;
    if ('drop' in choice) steps.push({ op: 'drop', from: row.path });
    else {
      const to = row.targets.find((t) => t.path === choice.to);
      if (!to || to.refused) return null;
      steps.push({ op: to.op, from: row.path, to: to.path });
    }
    rowOf.push(i);
  }
  return { steps, rowOf };
}

/**
 * The service's refusals at `migrations[i]…`, by row; the others apart. The
 * steps are the user's answers, so a message naming one (`migrations[0]
 * already writes title`) names the field it answers for instead.
 */
export function errorsByRow(
  errors: Array<{ path: string; message: string }>,
  rowOf: number[],
  rows: Array<{ path: string }>,
): { rows: Map<number, string[]>; other: string[] } {
  const byRow = new Map<number, string[]>();
  const other: string[] = [];
  const plain = (message: string) =>
    message.replace(/migrations\[(\d+)\]/g, (step, n: string, at: number) => {
      const row = rows[rowOf[Number(n)] ?? -1];
      return row ? `${at === 0 ? 'The' : 'the'} choice for ${row.path}` : step;
    });
  for (const error of errors) {
    const match = /^migrations\[(\d+)\]/.exec(error.path);
    const row = match ? rowOf[Number(match[1])] : undefined;
    if (row === undefined) other.push(plain(error.message));
    else byRow.set(row, [...(byRow.get(row) ?? []), plain(error.message)]);
  }
  return { rows: byRow, other };
}

/**
 * A reason of `migration_impact` without the step it comes from, which the
 * user never wrote: `convert price: "twelve" is not a number. (migrations of
 * 2.0, step 2)` → `"twelve" is not a number.`
 */
export const plainReason = (message: string) =>
  message
    .replace(/ \(migrations of [^)]*\)$/, '')
    .replace(/^(rename|move|set|default|convert|drop|derive) [^:]+: /, '');

/** What a conversion does to the values, in plain words; null when the kinds are the same. */
export function conversionWords(from: Kind, to: Kind): string | null {
  if (from === to) return null;
  const words: Record<string, string> = {
    'text>number': 'its text becomes a number ("12.5" → 12.5); text that is no number cannot move',
    'text>boolean': 'its text becomes yes or no ("yes", "true", "on", "1" are yes; "no", "false", "off", "0" no)',
    'text>list': 'its text is split at each comma into a list',
    'list>text': 'its list is joined into one text, with commas',
    'number>boolean': '0 becomes no, any other number yes',
    'boolean>number': 'yes becomes 1, no 0',
  };
  const key = `${from}>${to}`;
  if (words[key]) return words[key];
  if (to === 'text') return `${KIND_WORDS[from]} becomes text`;
  if (to === 'list') return 'each value becomes a list of one item';
  if (from === 'list') return `a list of one item becomes ${KIND_WORDS[to]}; a longer list cannot move`;
  return `its values become ${KIND_WORDS[to]}`;
}
