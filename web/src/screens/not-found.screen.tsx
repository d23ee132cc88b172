import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFoundScreen() {
  return (
    <Stack>
      <Title order={1}>Page not found</Title>
      <Text>There is nothing at this address.</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  );
}
