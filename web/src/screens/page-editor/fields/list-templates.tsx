import { ActionIcon, Box, Button, Collapse, Fieldset, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ArrayFieldItemTemplateProps, ArrayFieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { createContext, use, useState } from 'react';
import { itemTitle } from './field-ui';

interface ItemContext {
  title: string;
}
// rjsf gives an item's template no value: the list's template, which has them all, tells each its title.
const ItemTitle = createContext<ItemContext | null>(null);

/** "Events" → "event", "Stories" → "story": what the Add button adds, when the items have no title of their own. */
function singular(label: string): string {
  const lower = label.toLowerCase();
  if (/ies$/.test(lower)) return lower.slice(0, -3) + 'y';
  if (/[^su]s$/.test(lower)) return lower.slice(0, -1);
  return lower;
}

/**
 * A list (`x-widget: list`) as a person edits one: its items as cards titled
 * from their first text field ("Spring fair", not "events-1"), each
 * collapsible and moved up or down by buttons named after it, and one
 * "Add <item>" button under them.
 */
export function ListTemplate({
  items,
  canAdd,
  onAddClick,
  disabled,
  readonly,
  title,
  schema,
  uiSchema,
  formData,
  fieldPathId,
}: ArrayFieldTemplateProps) {
  const options = getUiOptions(uiSchema);
  const itemSchema = schema.items;
  const ownTitle =
    itemSchema && typeof itemSchema === 'object' && !Array.isArray(itemSchema) && typeof itemSchema.title === 'string'
      ? itemSchema.title
      : '';
  const label = ownTitle || singular(String(options.title ?? title ?? 'item')) || 'item';
  const values: unknown[] = Array.isArray(formData) ? formData : [];
  const heading = String(options.title ?? title ?? '');
  return (
    <Fieldset legend={heading || undefined} id={fieldPathId.$id} variant="unstyled">
      {schema.description && (
        <Text size="sm" c="dimmed" mb="xs">
          {schema.description}
        </Text>
      )}
      <Stack gap="xs">
        {items.map((item, i) => (
          <ItemTitle.Provider key={item.key ?? i} value={{ title: itemTitle(values[i], itemSchema, label, i) }}>
            {item}
          </ItemTitle.Provider>
        ))}
        {items.length === 0 && (
          <Text size="sm" c="dimmed">
            No {label} yet.
          </Text>
        )}
      </Stack>
      {canAdd && (
        <Button variant="light" mt="xs" onClick={onAddClick} disabled={disabled || readonly}>
          Add {label}
        </Button>
      )}
    </Fieldset>
  );
}

/** One item of a list: its title (a button that shows or hides its fields), moves and removal, then its fields. */
export function ListItemTemplate({
  children,
  buttonsProps,
  index,
  itemKey,
  disabled,
  readonly,
}: ArrayFieldItemTemplateProps) {
  const title = use(ItemTitle)?.title ?? `Item ${index + 1}`;
  const [open, setOpen] = useState(true);
  const bodyId = `${buttonsProps.fieldPathId.$id}__body`;
  const off = disabled || readonly;
  // rjsf offers no move up to the first item, no move down to the last: both stay, disabled, so that nothing jumps.
  const orderable = buttonsProps.hasMoveUp || buttonsProps.hasMoveDown;
  return (
    <Paper withBorder p="xs" data-item-key={itemKey}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <UnstyledButton
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
          style={{ flex: 1, minWidth: 0 }}
        >
          <Text component="span" display="block" fw={600} size="sm" truncate>
            <span aria-hidden>{open ? '▾' : '▸'} </span>
            {title}
          </Text>
        </UnstyledButton>
        <Group gap={4} wrap="nowrap">
          {orderable && (
            <ActionIcon
              variant="default"
              aria-label={`Move “${title}” up`}
              disabled={off || !buttonsProps.hasMoveUp}
              onClick={buttonsProps.onMoveUpItem}
            >
              ↑
            </ActionIcon>
          )}
          {orderable && (
            <ActionIcon
              variant="default"
              aria-label={`Move “${title}” down`}
              disabled={off || !buttonsProps.hasMoveDown}
              onClick={buttonsProps.onMoveDownItem}
            >
              ↓
            </ActionIcon>
          )}
          {buttonsProps.hasRemove && (
            <ActionIcon
              variant="default"
              color="red"
              aria-label={`Remove “${title}”`}
              disabled={off}
              onClick={buttonsProps.onRemoveItem}
            >
              ✕
            </ActionIcon>
          )}
        </Group>
      </Group>
      <Collapse expanded={open} keepMountedMode="display-none" id={bodyId}>
        <Box pt="xs">{children}</Box>
      </Collapse>
    </Paper>
  );
}
