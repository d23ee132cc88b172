import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { DocumentTitle } from '../shell/document-title';

export function NotFoundScreen() {
  return (
    <Stack>
      <DocumentTitle title={'Page not found'} />
      <Title order={1}>Page not found</Title>
      <Text>There is nothing at this address.</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  );
}
