import { Alert, Button, Fieldset, Group, List, Modal, Radio, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/errors';
import {
  buildMigrations,
  conversionWords,
  errorsByRow,
  KIND_WORDS,
  plainReason,
  type Choice,
  type MappingRow,
  type MigrationStep,
} from './field-mapping';
import type { UpdateResult } from './save-types';

let openings = 0;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A save of the form with these migrations: a dry run, or the real one (the parent's mutation). */
export interface MappingSave {
  dryRun: (steps: MigrationStep[]) => Promise<UpdateResult>;
  save: (steps: MigrationStep[]) => void;
  pending: boolean;
  error: unknown;
  reset: () => void;
}

/**
 * The "Fields removed" step of a breaking save: for each field the save
 * removes or renames, where its values go ("heading is now title", converted
 * when the new field takes another kind of value) or that they are dropped,
 * with how many instances hold one. The answers become the update's
 * `migrations`; a dry run with them says what they do to the pages before the
 * user confirms, and a refusal at `migrations[i]…` is shown at its row.
 */
export function FieldsRemoved({
  rows,
  initial,
  holding,
  version,
  instances,
  mapping,
  onClose,
}: {
  rows: MappingRow[];
  initial: Choice[];
  /** How many instances hold a value in each removed field (null: the service did not say). */
  holding: Map<string, number> | null;
  /** The version the save makes: `2.0`. */
  version: string;
  /** The caller's instances of the block. */
  instances: number;
  mapping: MappingSave;
  onClose: () => void;
}) {
  const [choices, setChoices] = useState<Choice[]>(initial);
  // Each opening checks afresh: the same steps over other values are another dry run.
  const [opening] = useState(() => ++openings);
  const built = buildMigrations(rows, choices);
  const key = built ? JSON.stringify(built.steps) : null;
  const check = useQuery({
    queryKey: ['block-field-mapping', opening, key],
    queryFn: () => mapping.dryRun(built!.steps),
    enabled: built !== null,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const refusal = mapping.error ?? (check.isError ? check.error : null);
  const placed = errorsByRow(refusal instanceof ApiError ? refusal.errors : [], built?.rowOf ?? [], rows);
  const choose = (i: number, choice: Choice) => {
    mapping.reset();
    setChoices((all) => all.map((c, j) => (j === i ? choice : c)));
  };
  const impact = check.data?.migration_impact ?? null;
  const ready = built !== null && check.isSuccess && !mapping.error;

  return (
    <Modal opened onClose={onClose} title="Fields removed" size="lg">
      <Stack>
        <Text size="sm">
          This save removes or renames fields: it makes version {version}, a major change. Pages using the block keep
          their version until they are upgraded. Say where the values of each field go, so that they move with them.
        </Text>
        {rows.map((row, i) => (
          <MappingRowInput
            key={row.path}
            row={row}
            choice={choices[i] ?? null}
            holding={holding?.get(row.path)}
            errors={placed.rows.get(i) ?? []}
            onChange={(choice) => choose(i, choice)}
          />
        ))}
        <div role="status" aria-live="polite">
          {built === null ? (
            <Text size="sm">Choose what happens to the values of each field to go on.</Text>
          ) : check.isPending ? (
            <Text size="sm">Checking what these choices do to your pages…</Text>
          ) : placed.rows.size > 0 ? (
            <Text size="sm">These choices cannot be saved as they stand: see the fields marked in red.</Text>
          ) : impact ? (
            <ImpactWithChoices impact={impact} instances={instances} version={version} />
          ) : null}
        </div>
        {(placed.other.length > 0 || (refusal !== null && !(refusal instanceof ApiError))) && (
          <Alert color="red" role="alert">
            {placed.other.length ? placed.other.join(' ') : errorMessage(refusal)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={mapping.pending} disabled={!ready} onClick={() => built && mapping.save(built.steps)}>
            Save as version {version}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function MappingRowInput({
  row,
  choice,
  holding,
  errors,
  onChange,
}: {
  row: MappingRow;
  choice: Choice;
  holding: number | undefined;
  errors: string[];
  onChange: (choice: Choice) => void;
}) {
  const usable = row.targets.filter((t) => t.refused === null);
  const mode = choice === null ? null : 'drop' in choice ? 'drop' : 'move';
  const to = choice && 'to' in choice ? row.targets.find((t) => t.path === choice.to) : undefined;
  const converts = to ? conversionWords(row.kind, to.kind) : null;
  const held =
    holding === undefined
      ? null
      : holding === 0
        ? 'No instance holds a value in it.'
        : `${plural(holding, 'instance holds', 'instances hold')} a value in it.`;
  return (
    <Fieldset
      legend={
        <>
          <code>{row.path}</code>{' '}
          <Text span size="sm">
            ({KIND_WORDS[row.kind]})
          </Text>
        </>
      }
      aria-label={`Removed field ${row.path}`}
    >
      <Stack gap="xs">
        {held && <Text size="sm">{held}</Text>}
        <Radio.Group
          value={mode}
          onChange={(value) =>
            onChange(value === 'drop' ? { drop: true } : usable[0] ? { to: (to ?? usable[0]).path } : null)
          }
          label={`What happens to the values of ${row.path}`}
          error={errors.length ? errors.join(' ') : undefined}
        >
          <Stack gap="xs" mt="xs">
            <Radio
              value="move"
              label="Its values go to another field"
              disabled={usable.length === 0}
              description={usable.length === 0 ? 'No field this save adds can take them.' : undefined}
            />
            {usable.length > 0 && (
              <Select
                ml="xl"
                aria-label={`The field that takes the values of ${row.path}`}
                placeholder="Choose a field"
                data={row.targets.map((t) => ({
                  value: t.path,
                  label: t.refused ? `${t.path} (cannot: ${t.refused})` : t.path,
                  disabled: t.refused !== null,
                }))}
                value={to?.path ?? null}
                onChange={(value) => value && onChange({ to: value })}
                allowDeselect={false}
                maw={360}
              />
            )}
            {to && (
              <Text size="sm" ml="xl">
                {row.path} is now {to.path}
                {converts ? `: ${converts}.` : '.'}
              </Text>
            )}
            <Radio
              value="drop"
              label="Drop its values"
              description={
                holding ? `${plural(holding, 'instance loses its value', 'instances lose their values')}.` : undefined
              }
            />
          </Stack>
        </Radio.Group>
      </Stack>
    </Fieldset>
  );
}

function ImpactWithChoices({
  impact,
  instances,
  version,
}: {
  impact: NonNullable<UpdateResult['migration_impact']>;
  instances: number;
  version: string;
}) {
  if (instances === 0) return <Text size="sm">No page uses this block yet: there are no values to carry.</Text>;
  const ready = impact.migratable - impact.blocked;
  // Instances the choices do not carry: an earlier major change of theirs left values no step carries.
  const left = instances - impact.migratable;
  return (
    <>
      <Text size="sm">
        With these choices, {ready} of your {plural(instances, 'instance', 'instances')} can move to version {version}{' '}
        with {ready === 1 ? 'its values' : 'their values'}.
        {left > 0
          ? ` ${plural(left, 'stands', 'stand')} on an older version whose removed fields nothing carries.`
          : ''}
        {impact.blocked > 0 ? ` ${impact.blocked} could not yet:` : ''}
      </Text>
      {impact.reasons.length > 0 && (
        <List size="sm" aria-label="Why some instances could not move">
          {impact.reasons.map((reason) => (
            <List.Item key={`${reason.field} ${reason.code}`}>
              {reason.field}: {plainReason(reason.message)} ({plural(reason.instances, 'instance', 'instances')})
            </List.Item>
          ))}
        </List>
      )}
    </>
  );
}
