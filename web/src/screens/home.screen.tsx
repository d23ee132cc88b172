import { Anchor, Button, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap, useApi } from '../api/client';
import { useSession } from '../auth/session';
import { DocumentTitle } from '../shell/document-title';

interface Step {
  to: string;
  label: string;
  text: string;
  /** Known to be done; undefined while it cannot be told (still loading, or not answered). */
  done: boolean | undefined;
}

/**
 * The first-run path: from nothing to a published page. Each step says
 * whether it is done, and the button leads to the first one that is not, so a
 * newcomer always knows what to do next.
 */
export function HomeScreen() {
  const { data: user } = useSession();
  const steps = useSteps();
  const next = steps.find((step) => step.done === false);
  const allDone = steps.every((step) => step.done === true);
  return (
    <Stack maw={720}>
      <DocumentTitle title={'Home'} />
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        Welcome{user ? `, ${user.email}` : ''}
      </Title>
      <Text>
        Pageblocks builds pages from reusable blocks and publishes them to your CMS. From nothing to a published page:
      </Text>
      <Paper withBorder p="lg" component="section" aria-label="First steps">
        <List type="ordered" spacing="md" icon={null} styles={{ itemWrapper: { display: 'inline' } }}>
          {steps.map((step, index) => (
            <List.Item
              key={step.label}
              icon={
                <ThemeIcon size={24} radius="xl" aria-hidden color={step.done ? 'green' : undefined}>
                  {step.done ? '✓' : index + 1}
                </ThemeIcon>
              }
            >
              <Anchor component={Link} to={step.to} fw={600}>
                {step.label}
              </Anchor>{' '}
              {step.text}
              {step.done && <Text span> (done)</Text>}
            </List.Item>
          ))}
        </List>
      </Paper>
      {next ? (
        <div>
          <Button component={Link} to={next.to}>
            Next: {next.label.toLowerCase()}
          </Button>
        </div>
      ) : allDone ? (
        <Text>
          Your first page is published. Change it in the{' '}
          <Anchor component={Link} to="/pages" underline="always">
            page editor
          </Anchor>{' '}
          and publish the update.
        </Text>
      ) : null}
      <Text>
        A script or an AI agent can do all of this for you through the API: give it an{' '}
        <Anchor component={Link} to="/api-keys" underline="always">
          API key
        </Anchor>
        .
      </Text>
    </Stack>
  );
}

/** Where the user stands, from their own sites and pages (a failed query leaves a step undecided). */
function useSteps(): Step[] {
  const api = useApi();
  const first = { params: { query: { limit: 1, offset: 0 } } };
  const sites = useQuery({ queryKey: ['sites', 'first'], queryFn: () => unwrap(api.GET('/api/sites', first)) });
  const site = sites.data?.data[0];
  const provider = useQuery({
    queryKey: ['sites', site?.id, 'provider'],
    queryFn: () => unwrap(api.GET('/api/sites/{id}/provider', { params: { path: { id: site!.id } } })),
    enabled: site !== undefined,
  });
  const pages = useQuery({
    queryKey: ['pages', 'home'],
    queryFn: () => unwrap(api.GET('/api/pages', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const draft = pages.data?.data.find((page) => !page.is_published) ?? pages.data?.data[0];
  const hasSite = sites.data ? sites.data.total > 0 : undefined;
  return [
    {
      to: '/sites',
      label: 'Create a site',
      text: 'where pages are published: a name is enough.',
      done: hasSite,
    },
    {
      to: site ? `/sites/${site.id}` : '/sites',
      label: 'Connect its CMS',
      text: 'on the site’s page: the fourcms address and its token.',
      done: hasSite === false ? false : provider.data ? provider.data.type !== null : undefined,
    },
    {
      to: draft ? `/pages/${draft.id}` : '/pages',
      label: 'Compose a page',
      text: 'from blocks of the library (starter blocks are there to begin with), with a live preview.',
      done: pages.data ? pages.data.total > 0 : undefined,
    },
    {
      to: draft ? `/pages/${draft.id}` : '/pages',
      label: 'Publish it',
      text: 'to the site’s CMS, from the page editor.',
      done: pages.data ? pages.data.data.some((page) => page.is_published) : undefined,
    },
  ];
}
