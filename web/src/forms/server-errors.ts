import type { UseFormReturnType } from '@mantine/form';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage, placedMessage, type FieldError } from '../api/errors';

/**
 * The service's `errors[].path` in a form's path syntax:
 * `blocks[0].placeholder_values.title` → `blocks.0.placeholder_values.title`.
 */
export function formPath(serverPath: string): string {
  return serverPath.replace(/\[(\d+)\]/g, '.$1');
}

export interface SplitErrors {
  /** Form path → message, for the paths the form has a field for. */
  fields: Record<string, string>;
  /** Errors without a field of this form, and the error's own sentence when nothing else explains it. */
  summary: string[];
}

/** Splits a failure into messages next to fields and a summary (for any kind of form). */
export function splitServerErrors(error: unknown, hasField: (path: string) => boolean): SplitErrors {
  const fields: Record<string, string> = {};
  const summary: string[] = [];
  const list: FieldError[] = error instanceof ApiError ? error.errors : [];
  for (const { path, message } of list) {
    const target = formPath(path);
    if (path !== 'root' && hasField(target) && fields[target] === undefined) fields[target] = message;
    else summary.push(placedMessage({ path, message }));
  }
  if (Object.keys(fields).length === 0 && summary.length === 0) summary.push(errorMessage(error));
  return { fields, summary };
}

/**
 * Shows a server failure on a Mantine form: each `errors[]` entry next to its
 * field, the first such field focused; the rest in a summary that gets focus
 * when no field does. Render `<ErrorSummary ref={summaryRef} messages={summary} />`.
 *
 *   const { summary, summaryRef, showError, clear } = useServerErrors(form);
 *   mutation.mutate(values, { onError: showError });
 */
export function useServerErrors<Values>(form: UseFormReturnType<Values>) {
  const [summary, setSummary] = useState<string[]>([]);
  const summaryRef = useRef<HTMLDivElement>(null);
  // What to focus once the messages are on screen: a field's path, or the summary (null).
  const [focus, setFocus] = useState<{ path: string | null } | undefined>();

  useEffect(() => {
    if (!focus) return;
    if (focus.path !== null) form.getInputNode(focus.path as never)?.focus();
    else summaryRef.current?.focus();
    setFocus(undefined);
  }, [focus, form]);

  const showError = useCallback(
    (error: unknown) => {
      const node = (path: string) => form.getInputNode(path as never);
      const split = splitServerErrors(error, (path) => node(path) !== null);
      form.setErrors(split.fields);
      setSummary(split.summary);
      // Focused after React has rendered the messages, so that a screen reader reads them with it.
      setFocus({ path: Object.keys(split.fields)[0] ?? null });
    },
    [form],
  );

  const clear = useCallback(() => {
    form.clearErrors();
    setSummary([]);
  }, [form]);

  return { summary, summaryRef, showError, clear };
}
