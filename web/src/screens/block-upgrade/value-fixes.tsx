import { Alert, Button, Group, NumberInput, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Plan } from './types';
import { versionText } from './types';
import { count, labelOf, type FieldInfo } from './words';

type Reason = Plan['summary']['reasons'][number];
type Step = { op: 'default'; to: string; value: unknown } | { op: 'derive'; to: string; expression: string };

/** Fields one typed value can fill: text and numbers (a picture, a list or a group of fields is given on the page). */
const TYPED = new Set(['string', 'text', 'richtext', 'number', 'integer', 'url', 'color', 'date', 'select']);

/** The reasons one step can fix for every instance: a top-level field with no value, or text over its new length. */
const fixable = (r: Reason, fields: Map<string, FieldInfo>) =>
  !/[.[]/.test(r.field) &&
  ((r.code === 'required' && TYPED.has(fields.get(r.field)?.type ?? 'string')) || r.code === 'too_long');

/**
 * Fix values where they stand (issue 29, point 6): for the instances a
 * tightened constraint or a new required field blocks, one value for every
 * instance, or "cut to N characters". Each is a value migration saved with
 * the block's current revision (an update carrying only `migrations`): the
 * upgrade applies it to every instance it moves, and no page is edited by hand.
 */
export function ValueFixes({
  blockId,
  plan,
  fields,
  onFixed,
}: {
  blockId: number;
  plan: Plan;
  fields: Map<string, FieldInfo>;
  onFixed: (said: string) => void;
}) {
  const reasons = plan.summary.reasons.filter((r) => fixable(r, fields));
  if (reasons.length === 0) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="fixes-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="fixes-title">
          Fix values where they stand
        </Title>
        <Text size="sm">
          One step for every instance, kept with version {versionText(plan.to)}: the upgrade applies it to each instance
          it moves. No page is edited by hand.
        </Text>
        {reasons.map((r) => (
          <Fix key={`${r.field} ${r.code}`} blockId={blockId} reason={r} fields={fields} onFixed={onFixed} />
        ))}
      </Stack>
    </Paper>
  );
}

function Fix({
  blockId,
  reason,
  fields,
  onFixed,
}: {
  blockId: number;
  reason: Reason;
  fields: Map<string, FieldInfo>;
  onFixed: (said: string) => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const field = fields.get(reason.field);
  const label = labelOf(reason.field, fields);
  const numeric = field?.type === 'number' || field?.type === 'integer';
  const [text, setText] = useState('');
  const [number, setNumber] = useState<string | number>('');
  const [cut, setCut] = useState<string | number>(field?.max_length ?? 10);
  const save = useMutation({
    mutationFn: (step: Step) =>
      unwrap(api.PUT('/api/blocks/{id}', { params: { path: { id: blockId } }, body: { migrations: [step] } })),
    onSuccess: async (_result, step) => {
      await queryClient.invalidateQueries({ queryKey: ['block', blockId] });
      onFixed(
        step.op === 'default'
          ? `Every instance without ${label} gets ${numeric ? String(step.value) : `“${String(step.value)}”`} when it is upgraded.`
          : `${label} is cut to ${cut} characters in every instance when it is upgraded.`,
      );
    },
  });
  const instances = count(reason.instances, 'instance');

  if (reason.code === 'required') {
    const value = numeric ? number : text;
    return (
      <form
        aria-label={`A value for ${label}`}
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ op: 'default', to: reason.field, value: numeric ? Number(value) : value });
        }}
      >
        <Stack gap={6}>
          <Text size="sm">
            <strong>{label}</strong> is required and {instances} have no value. Give them all one value:
          </Text>
          <Group align="flex-end" gap="xs">
            {numeric ? (
              <NumberInput label={`${label} for every instance`} value={number} onChange={setNumber} />
            ) : (
              <TextInput
                label={`${label} for every instance`}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
              />
            )}
            <Button type="submit" loading={save.isPending} disabled={value === ''}>
              Use this value
            </Button>
          </Group>
          {save.isError && (
            <Alert color="red" role="alert" p="xs">
              {errorMessage(save.error)}
            </Alert>
          )}
        </Stack>
      </form>
    );
  }
  return (
    <form
      aria-label={`Cut ${label}`}
      onSubmit={(event) => {
        event.preventDefault();
        const n = Number(cut);
        save.mutate({
          op: 'derive',
          to: reason.field,
          expression: `{{ ${reason.field} | slice: 0, ${n} }}`,
        });
      }}
    >
      <Stack gap={6}>
        <Text size="sm">
          <strong>{label}</strong> holds longer text than allowed in {instances}
          {field?.max_length ? ` (at most ${field.max_length} characters now)` : ''}. Cut it:
        </Text>
        <Group align="flex-end" gap="xs">
          <NumberInput label="Cut to this many characters" min={1} value={cut} onChange={setCut} w={220} />
          <Button type="submit" loading={save.isPending} disabled={!(Number(cut) >= 1)}>
            Cut every instance
          </Button>
        </Group>
        {save.isError && (
          <Alert color="red" role="alert" p="xs">
            {errorMessage(save.error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
