import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../api/errors';

/**
 * A screen that cannot show what its address names: why, in plain words (a
 * missing or foreign object is "not found", never its internal id or an API
 * path), and the way back to the list it came from.
 */
export function ScreenError({
  title,
  error,
  what,
  back,
}: {
  title: string;
  error: unknown;
  /** What the address names, for the plain sentence: "this block". */
  what: string;
  back: { to: string; label: string };
}) {
  const gone = error instanceof ApiError && (error.status === 404 || error.status === 403 || error.status === 400);
  return (
    <Stack maw={960}>
      {/* The screen's heading, as every screen has one (axe: page-has-heading-one). */}
      <Title order={1}>{title}</Title>
      <Alert color="red" role="alert">
        {gone ? `There is no ${what} at this address: it was deleted, or it is not yours.` : errorMessage(error)}
      </Alert>
      <Anchor component={Link} to={back.to}>
        ← {back.label}
      </Anchor>
    </Stack>
  );
}
