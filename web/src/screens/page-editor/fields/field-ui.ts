import type { UiSchema } from '@rjsf/utils';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The form's uiSchema made from the placeholder schema's own `x-widget`
 * annotations (the service names the widget of every field, at every level):
 * a multi-line box for `textarea`, the rich-text editor for `richtext`, the
 * colour picker, the media library for `image`, and lists whose items are
 * titled, collapsible and reorderable. What the schema does not name is
 * drawn by rjsf's own choice.
 */
export function uiSchemaOf(schema: Schema): UiSchema {
  const ui: UiSchema = {};
  switch (schema['x-widget']) {
    case 'textarea':
      ui['ui:widget'] = 'textarea';
      // Not Mantine's autosize: a box that grows under the pointer moves the Save button away as one types.
      ui['ui:options'] = { rows: 5, resize: 'vertical' };
      break;
    case 'richtext':
    case 'image':
      ui['ui:widget'] = schema['x-widget'];
      break;
    case 'color':
      ui['ui:widget'] = 'colour';
      break;
    case 'list':
      ui['ui:options'] = { itemLabel: itemLabelOf(schema) };
      break;
  }
  if (isSchema(schema.properties))
    for (const [name, property] of Object.entries(schema.properties))
      if (isSchema(property)) {
        const inner = uiSchemaOf(property);
        if (Object.keys(inner).length) ui[name] = inner;
      }
  if (isSchema(schema.items)) {
    const inner = uiSchemaOf(schema.items);
    // A list item's card carries its title: its group's own heading would only repeat rjsf's "events-1".
    if (schema.items['x-widget'] === 'group')
      inner['ui:options'] = { ...(inner['ui:options'] as object | undefined), label: false };
    if (Object.keys(inner).length) ui.items = inner;
  }
  return ui;
}

/** What one item of a list is called: its own title, else the list's title. */
function itemLabelOf(list: Schema): string {
  const items = isSchema(list.items) ? list.items : {};
  if (typeof items.title === 'string' && items.title) return items.title;
  return typeof list.title === 'string' && list.title ? list.title : 'item';
}

/**
 * The top-level plain text fields (one-line or multi-line) and their values,
 * as in-place editing on the page takes them; null when there is none.
 */
export function textFieldsOf(
  schema: Schema,
  values: Record<string, unknown>,
): Record<string, { value: string; label: string; multiline: boolean }> | null {
  if (!isSchema(schema.properties)) return null;
  const out: Record<string, { value: string; label: string; multiline: boolean }> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    // An emptied field stays offered: the box on the page may be emptied and typed in again.
    const value = values[name] ?? '';
    if (!isSchema(property) || typeof value !== 'string') continue;
    if (property['x-widget'] !== 'input' && property['x-widget'] !== 'textarea') continue;
    const label = typeof property.title === 'string' && property.title ? property.title : name;
    out[name] = { value, label, multiline: property['x-widget'] === 'textarea' };
  }
  return Object.keys(out).length ? out : null;
}

/** The names of an item's text fields (one-line or multi-line), in the schema's order: the first titles the item. */
export function itemTextFieldsOf(items: unknown): string[] {
  if (!isSchema(items) || !isSchema(items.properties)) return [];
  return Object.entries(items.properties)
    .filter(([, p]) => isSchema(p) && (p['x-widget'] === 'input' || p['x-widget'] === 'textarea'))
    .map(([name]) => name);
}

/** The title of a list item: its first text field's value (a line of it), else "<Item> n". */
export function itemTitle(value: unknown, items: unknown, label: string, index: number): string {
  if (typeof value === 'string' && value.trim()) return firstLine(value);
  if (isSchema(value))
    for (const name of itemTextFieldsOf(items)) {
      const text = value[name];
      if (typeof text === 'string' && text.trim()) return firstLine(text);
    }
  return `${capitalize(label)} ${index + 1}`;
}

const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
