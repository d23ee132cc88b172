import { Paper, Stack, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode, Ref } from 'react';
import { ErrorSummary } from './error-summary';

/** What a panel needs of `useServerErrors`: the summary it shows and the errors it clears on submit. */
interface PanelErrors {
  summary: string[];
  summaryRef: Ref<HTMLDivElement>;
  clear: () => void;
}

/**
 * A form in a panel of its own, as the list screens put them (create a key,
 * a page, a site, a webhook): named by its heading for assistive technology,
 * the server's last refusal cleared once the form is sent again and valid,
 * what no field can show in a summary under the heading.
 */
export function FormPanel<Values>({
  title,
  failedTitle,
  form,
  errors,
  onValid,
  children,
}: {
  title: string;
  /** The summary's title: what could not be done ("Could not create the key"). */
  failedTitle: string;
  form: UseFormReturnType<Values>;
  errors: PanelErrors;
  onValid: (values: Values) => void;
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-label={title}
      noValidate
      onSubmit={form.onSubmit((values) => {
        errors.clear();
        onValid(values);
      })}
    >
      <Stack gap="sm">
        <Title order={2} size="h3">
          {title}
        </Title>
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title={failedTitle} />
        {children}
      </Stack>
    </Paper>
  );
}
