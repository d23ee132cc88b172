import { Alert, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { unwrap, useApi, type paths } from '../../api/client';
import { ErrorSummary } from '../../forms/error-summary';
import { useServerErrors } from '../../forms/server-errors';

type Status = paths['/api/pages/{id}/publication']['get']['responses'][200]['content']['application/json'];

/** The user's time zone in words, as their browser names it: "Central European Standard Time, Europe/Paris". */
export function zoneInWords(at: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const name = new Intl.DateTimeFormat(undefined, { timeZoneName: 'long' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return name && name !== zone ? `${name}, ${zone}` : zone;
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });
/** A service timestamp in the user's zone, in full: "Friday, 15 January 2027 at 09:00". */
export const fullTime = (iso: string) => when.format(new Date(iso));

/** `datetime-local`'s value (the user's wall-clock time) for a date. */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * Scheduled publication, beside Publish: a date and time in the user's own
 * zone (named in words under the box; the service gets the instant), the
 * pending schedule with Cancel, and how the last scheduled run went. The
 * body is publish's: the rubric ids typed above go with it.
 */
export function SchedulePanel({
  pageId,
  status,
  published,
  open,
  onOpen,
  body,
}: {
  pageId: number;
  status: Status | undefined;
  published: boolean;
  /** Whether the date and time are asked for (the Schedule button beside Publish opens it). */
  open: boolean;
  onOpen: (open: boolean) => void;
  /** Publish's body as the form above has it now (rubric ids). */
  body: () => { rubric_ids?: number[] };
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { publish_at: '' },
    validate: {
      publish_at: (value) => {
        if (!value) return 'Choose the date and time of the publication.';
        return new Date(value).getTime() > Date.now() ? null : 'Choose a time in the future.';
      },
    },
  });
  const errors = useServerErrors(form);
  // The time is asked for where the Schedule button was pressed: the focus goes to it.
  const timeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) timeRef.current?.focus();
  }, [open]);
  const statusKey = ['page', pageId, 'publication'];
  const schedule = useMutation({
    mutationFn: (at: string) =>
      unwrap(
        api.POST('/api/pages/{id}/schedule', {
          params: { path: { id: pageId } },
          body: { ...body(), publish_at: new Date(at).toISOString() },
        }),
      ),
    onSuccess: (next) => {
      queryClient.setQueryData(statusKey, next);
      form.reset();
      onOpen(false);
    },
    onError: errors.showError,
  });
  const cancel = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/pages/{id}/schedule', { params: { path: { id: pageId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKey }),
  });
  const pending = status?.scheduled_at ?? null;
  const last = status?.last_scheduled_run ?? null;
  const zone = zoneInWords(pending ? new Date(pending) : undefined);

  return (
    <Stack gap="sm">
      {pending && (
        <Paper withBorder p="sm" role="status" aria-label="Scheduled publication">
          <Group justify="space-between" gap="xs">
            <Text size="sm">
              {published ? 'An update is scheduled' : 'Publication is scheduled'} for{' '}
              <strong>{fullTime(pending)}</strong>, your time ({zone}).
            </Text>
            <Button variant="default" size="compact-sm" loading={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel schedule
            </Button>
          </Group>
        </Paper>
      )}
      {cancel.isError && (
        <Alert color="red" role="alert" title="The schedule was not cancelled">
          It may have run already: the status above is read again.
        </Alert>
      )}
      {last && (
        <Alert
          color={last.outcome === 'published' ? 'green' : 'red'}
          role="note"
          title={
            last.outcome === 'published'
              ? 'The last scheduled publication went through'
              : 'The last scheduled publication failed'
          }
        >
          <Text size="sm">
            {fullTime(last.at)}, your time{last.attempts > 1 ? `, after ${last.attempts} tries` : ''}.
          </Text>
          {last.error && <Text size="sm">{last.error}</Text>}
        </Alert>
      )}
      {open && (
        <form
          noValidate
          aria-label="Schedule the publication"
          onSubmit={form.onSubmit((values) => {
            errors.clear();
            schedule.mutate(values.publish_at);
          })}
        >
          <Stack gap="sm">
            <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not schedule" />
            <TextInput
              type="datetime-local"
              label={published ? 'Publish the update at' : 'Publish at'}
              description={`In your time zone: ${zone}.`}
              required
              min={localInput(new Date())}
              key={form.key('publish_at')}
              {...form.getInputProps('publish_at')}
              ref={timeRef}
            />
            <Group>
              <Button type="submit" loading={schedule.isPending}>
                Schedule
              </Button>
              <Button variant="subtle" onClick={() => onOpen(false)}>
                Not now
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
