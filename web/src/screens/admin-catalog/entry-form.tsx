import { Button, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/client';
import { ErrorSummary } from '../../forms/error-summary';
import { useServerErrors } from '../../forms/server-errors';
import type { Body, Section, Values } from './section';

/** Create (row null) or edit a row. JSON fields are parsed here, so a typo stays on its field. */
export function EntryForm<Row>({
  section,
  row,
  onSaved,
}: {
  section: Section<Row>;
  row: Row | null;
  onSaved?: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const fields = section.fields.filter((f) => row === null || !f.createOnly);
  const empty: Values = Object.fromEntries(section.fields.map((f) => [f.name, '']));
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: row === null ? empty : section.toValues(row),
    validate: Object.fromEntries(
      fields.map((f) => [
        f.name,
        (value: string) => {
          if (f.required && !value.trim()) return `${f.label} is required.`;
          if (f.kind === 'json' && value.trim()) {
            try {
              JSON.parse(value);
            } catch {
              return 'This is not valid JSON.';
            }
          }
          return null;
        },
      ]),
    ),
  });
  const errors = useServerErrors(form);
  const save = useMutation({
    mutationFn: (body: Body) => (row === null ? section.create(api, body) : section.update!(api, row, body)),
    onSuccess: async () => {
      if (row === null) form.reset();
      await queryClient.invalidateQueries({ queryKey: ['admin', 'catalog', section.id] });
      onSaved?.();
    },
    onError: errors.showError,
  });
  const action = row === null ? `Create ${section.noun}` : 'Save';
  return (
    <form
      aria-label={row === null ? `Create a ${section.noun}` : `Edit ${section.noun}`}
      noValidate
      onSubmit={form.onSubmit((values) => {
        errors.clear();
        const body: Body = {};
        for (const f of fields) {
          const value = values[f.name] ?? '';
          // An empty optional text field is left to the service's default (a slug made from the name).
          if (!f.required && !value.trim() && f.kind !== 'long' && row === null) continue;
          body[f.name] = f.kind === 'json' ? JSON.parse(value) : f.kind === 'long' ? value : value.trim();
        }
        save.mutate(body);
      })}
    >
      <Stack gap="sm">
        {row === null && (
          <Title order={2} size="h4">
            New {section.noun}
          </Title>
        )}
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title={`Could not save the ${section.noun}`} />
        {fields.map((f) =>
          f.kind === 'json' || f.kind === 'long' ? (
            <Textarea
              key={form.key(f.name)}
              label={f.label}
              description={f.description}
              required={f.required}

              rows={f.kind === 'json' ? 6 : 3}
              styles={f.kind === 'json' ? { input: { fontFamily: 'monospace' } } : undefined}
              {...form.getInputProps(f.name)}
            />
          ) : (
            <TextInput
              key={form.key(f.name)}
              label={f.label}
              description={f.description}
              required={f.required}
              {...form.getInputProps(f.name)}
            />
          ),
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {action}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
