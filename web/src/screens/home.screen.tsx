import { Anchor, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSession } from '../auth/session';

/** The first-run path: from nothing to a published page. */
export function HomeScreen() {
  const { data: user } = useSession();
  const steps = [
    { to: '/sites', label: 'Create a site', text: 'and connect its CMS: the base URL and a token.' },
    { to: '/blocks', label: 'Pick blocks from the library', text: 'or write your own.' },
    { to: '/pages', label: 'Compose a page', text: 'with a live preview, then publish it to the site.' },
    { to: '/api-keys', label: 'Create an API key', text: 'when a script or an AI agent should do the same for you.' },
  ];
  return (
    <Stack maw={720}>
      <Title order={1}>Welcome{user ? `, ${user.email}` : ''}</Title>
      <Text>Pageblocks builds pages from reusable blocks and publishes them to your CMS. Four steps:</Text>
      <Paper withBorder p="lg">
        <List type="ordered" spacing="md" icon={null} styles={{ itemWrapper: { display: 'inline' } }}>
          {steps.map((step, index) => (
            <List.Item
              key={step.to}
              icon={
                <ThemeIcon size={24} radius="xl" aria-hidden>
                  {index + 1}
                </ThemeIcon>
              }
            >
              <Anchor component={Link} to={step.to} fw={600}>
                {step.label}
              </Anchor>{' '}
              {step.text}
            </List.Item>
          ))}
        </List>
      </Paper>
    </Stack>
  );
}
