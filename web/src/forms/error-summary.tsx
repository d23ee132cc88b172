import { Alert, List } from '@mantine/core';
import type { Ref } from 'react';

/** The errors a form could not place next to a field. Focusable, so that it can be announced and reached. */
export function ErrorSummary({
  messages,
  ref,
  title = 'Could not save',
}: {
  messages: string[];
  ref?: Ref<HTMLDivElement>;
  title?: string;
}) {
  if (messages.length === 0) return null;
  return (
    <Alert ref={ref} tabIndex={-1} color="red" title={title} role="alert">
      {messages.length === 1 ? (
        messages[0]
      ) : (
        <List size="sm">
          {messages.map((message) => (
            <List.Item key={message}>{message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
