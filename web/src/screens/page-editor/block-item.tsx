import { useDroppable } from '@dnd-kit/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Anchor, Badge, Button, Group, NativeSelect, Paper, Text } from '@mantine/core';
import { Link } from 'react-router';
import { zoneId } from './drop-ids';
import type { Instance } from './use-page-blocks';

const STATUS = {
  up_to_date: 'Up to date',
  outdated_minor: 'Minor update available',
  outdated_major: 'Major change available',
} as const;

/** One instance of the page: a sortable card with its labelled controls. */
export function BlockItem({
  instance,
  names,
  number,
  depth,
  first,
  last,
  parentName,
  targets,
  busy,
  dragging,
  onStep,
  onPlace,
  onRemove,
  onEdit,
  onAddInto,
}: {
  instance: Instance;
  /** Each instance's name for people (display-names.ts): numbered when a block is on the page twice. */
  names: Record<number, string>;
  number: number;
  depth: number;
  first: boolean;
  last: boolean;
  parentName: string | undefined;
  targets: Instance[];
  busy: boolean;
  dragging: boolean;
  onStep: (step: -1 | 1) => void;
  onPlace: (parent: number | null) => void;
  onRemove: (instance: Instance) => void;
  onEdit: (instance: Instance) => void;
  onAddInto: (layout: Instance) => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: instance.id,
  });
  const name = names[instance.id] ?? instance.block.name;
  const layout = instance.block.kind === 'layout';
  const style = { transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : undefined };

  const handle = (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        ref={setActivatorNodeRef}
        variant="subtle"
        color="gray"
        aria-label={`Drag ${name}`}
        style={{ cursor: 'grab', touchAction: 'none' }}
        {...attributes}
        {...listeners}
      >
        ⠿
      </ActionIcon>
      {number}
    </Group>
  );
  const title = (
    <Group gap={6} wrap="nowrap">
      {depth > 0 && (
        <Text span c="dimmed" aria-hidden>
          ↳
        </Text>
      )}
      <Anchor component={Link} to={`/blocks/${instance.block.id}`} style={{ overflowWrap: 'anywhere' }}>
        {name}
      </Anchor>
      {layout && (
        <Badge size="xs" variant="light">
          Layout
        </Badge>
      )}
    </Group>
  );
  const inside = parentName && (
    <Text size="xs" c="dimmed">
      inside {parentName}
    </Text>
  );
  const version = `${instance.version.major}.${instance.version.minor}`;
  const place = (
    <NativeSelect
      size="xs"
      aria-label={`Place ${name} in`}
      disabled={busy || (targets.length === 0 && instance.parent_page_block_id === null)}
      value={instance.parent_page_block_id === null ? '' : String(instance.parent_page_block_id)}
      onChange={(event) => onPlace(event.currentTarget.value === '' ? null : Number(event.currentTarget.value))}
      data={[
        { value: '', label: 'The page' },
        ...targets.map((t) => ({ value: String(t.id), label: names[t.id] ?? t.block.name })),
      ]}
    />
  );
  const actions = (
    <>
      <Button size="compact-xs" aria-label={`Edit ${name}`} onClick={() => onEdit(instance)}>
        Edit
      </Button>
      {layout && (
        <Button size="compact-xs" variant="light" aria-label={`Add inside ${name}`} onClick={() => onAddInto(instance)}>
          Add inside
        </Button>
      )}
      <Button
        size="compact-xs"
        variant="default"
        aria-label={`Move ${name} up`}
        disabled={busy || first}
        onClick={() => onStep(-1)}
      >
        Up
      </Button>
      <Button
        size="compact-xs"
        variant="default"
        aria-label={`Move ${name} down`}
        disabled={busy || last}
        onClick={() => onStep(1)}
      >
        Down
      </Button>
      <Button
        size="compact-xs"
        variant="subtle"
        color="red"
        aria-label={`Remove ${name}`}
        onClick={() => onRemove(instance)}
      >
        Remove
      </Button>
    </>
  );
  const zone = layout && dragging && !isDragging && <DropZone layout={instance} name={name} depth={depth + 1} />;

  return (
    <>
      <Paper component="li" withBorder p="sm" ref={setNodeRef} style={{ ...style, marginLeft: `${depth}rem` }}>
        <Group gap="xs" wrap="nowrap" align="center">
          {handle}
          {title}
        </Group>
        {inside}
        <Text size="sm" mt={4}>
          Version {version} · {STATUS[instance.update_status]}
        </Text>
        <Group gap="xs" mt="xs" wrap="nowrap" align="center">
          <Text size="sm" fw={500} component="span">
            Place in
          </Text>
          {place}
        </Group>
        <Group gap="xs" mt="xs">
          {actions}
        </Group>
      </Paper>
      {zone}
    </>
  );
}

/** Shown under each layout while a block is dragged: dropping here puts the block at the end of the layout. */
function DropZone({ layout, name, depth }: { layout: Instance; name: string; depth: number }) {
  const { setNodeRef, isOver } = useDroppable({ id: zoneId(layout.id) });
  const label = `Drop here to put the block into ${name}`;
  const zone = {
    border: '2px dashed var(--mantine-color-blue-4)',
    background: isOver ? 'var(--mantine-color-blue-0)' : undefined,
  };
  const text = (
    <Text size="sm" c="blue">
      Drop here to put it into {name}
    </Text>
  );
  return (
    <Paper component="li" ref={setNodeRef} aria-label={label} p="sm" style={{ ...zone, marginLeft: `${depth}rem` }}>
      {text}
    </Paper>
  );
}
