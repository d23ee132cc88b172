import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  Pagination,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { DocumentTitle } from '../shell/document-title';

export type Block = paths['/api/blocks/{id}']['get']['responses'][200]['content']['application/json'];
type Role = 'all' | 'content' | 'layout';
type Show = 'all' | 'favorites';

const PAGE_SIZE = 24;

/**
 * The block library: every block the user may use (global ones and their
 * own), searched by text, tags and role. The filters live in the URL, so a
 * search can be shared and the back button returns to it.
 */
export function BlocksScreen() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const role = (params.get('role') as Role | null) ?? 'all';
  const show = (params.get('show') as Show | null) ?? 'all';
  const tags = params.get('tags')?.split(',').filter(Boolean) ?? [];
  const pageNumber = Math.max(1, Number(params.get('page')) || 1);

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );

  const tagList = useQuery({
    queryKey: ['tags'],
    queryFn: () => unwrap(api.GET('/api/tags', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const offset = (pageNumber - 1) * PAGE_SIZE;
  const blocks = useQuery({
    queryKey: ['blocks', { search: debouncedSearch, role, tags, show, offset }],
    queryFn: () =>
      show === 'favorites'
        ? unwrap(api.GET('/api/blocks/favorites', { params: { query: { limit: PAGE_SIZE, offset } } }))
        : unwrap(
            api.GET('/api/blocks', {
              params: {
                query: {
                  limit: PAGE_SIZE,
                  offset,
                  ...(debouncedSearch ? { search: debouncedSearch } : {}),
                  ...(role === 'all' ? {} : { role }),
                  ...(tags.length ? { tags: tags.join(',') } : {}),
                },
              },
            }),
          ),
    placeholderData: keepPreviousData,
  });
  const tagName = new Map(tagList.data?.data.map((tag) => [tag.id, tag.name]));
  const pages = blocks.data ? Math.ceil(blocks.data.total / PAGE_SIZE) : 0;
  // Set by the block's page after a deletion.
  const deleted = (useLocation().state as { deleted?: string } | null)?.deleted;

  return (
    <Stack maw={1200}>
      <Group justify="space-between" wrap="wrap">
        <DocumentTitle title={'Block library'} />
        <Title order={1}>Block library</Title>
        <Button component={Link} to="/blocks/new">
          New block
        </Button>
      </Group>
      {deleted && (
        <Alert color="green" role="status">
          “{deleted}” is deleted.
        </Alert>
      )}
      <Text>
        Blocks are the parts pages are made of. Global blocks are shared by everyone; your own blocks are yours alone.
      </Text>
      <Group align="flex-end" wrap="wrap" role="search" aria-label="Find blocks">
        <TextInput
          label="Search"
          description="By name and description"
          value={search}
          onChange={(event) => update({ search: event.currentTarget.value })}
          style={{ flex: '1 1 220px' }}
          disabled={show === 'favorites'}
        />
        <MultiSelect
          label="Tags"
          description="Blocks having all of them"
          data={(tagList.data?.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.name }))}
          value={tags}
          onChange={(value) => update({ tags: value.join(',') })}
          searchable
          clearable
          style={{ flex: '1 1 220px' }}
          disabled={show === 'favorites'}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="role-label">
            Role
          </Text>
          <SegmentedControl
            aria-labelledby="role-label"
            value={role}
            onChange={(value) => update({ role: value === 'all' ? null : value })}
            data={[
              { value: 'all', label: 'All' },
              { value: 'content', label: 'Content' },
              { value: 'layout', label: 'Layout' },
            ]}
            disabled={show === 'favorites'}
          />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="show-label">
            Show
          </Text>
          <SegmentedControl
            aria-labelledby="show-label"
            value={show}
            onChange={(value) => update({ show: value === 'all' ? null : value })}
            data={[
              { value: 'all', label: 'All blocks' },
              { value: 'favorites', label: 'Favorites' },
            ]}
          />
        </Stack>
      </Group>
      <section aria-labelledby="results-title" aria-busy={blocks.isFetching}>
        <Title order={2} size="h3" id="results-title" mb="sm">
          {blocks.data ? `${blocks.data.total} ${blocks.data.total === 1 ? 'block' : 'blocks'}` : 'Blocks'}
        </Title>
        {blocks.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : blocks.isError ? (
          <Alert color="red" title="Cannot load the library" role="alert">
            {errorMessage(blocks.error)}
          </Alert>
        ) : blocks.data.data.length === 0 ? (
          <Text>
            {show === 'favorites'
              ? 'No favorites yet. Open a block and mark it as a favorite to find it here.'
              : 'No block matches. Try fewer tags or another word.'}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" style={{ listStyle: 'none', padding: 0 }}>
            {blocks.data.data.map((block) => (
              <li key={block.id}>
                <BlockCard block={block} tagName={(id) => tagName.get(id)} />
              </li>
            ))}
          </SimpleGrid>
        )}
      </section>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={pageNumber}
          onChange={(value) => update({ page: String(value) })}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
        />
      )}
    </Stack>
  );
}

function BlockCard({ block, tagName }: { block: Block; tagName: (id: number) => string | undefined }) {
  return (
    <Card withBorder h="100%" padding="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Anchor component={Link} to={`/blocks/${block.id}`} fw={600}>
            {block.name}
          </Anchor>
          {block.version && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              v{block.version.major}.{block.version.minor}
            </Text>
          )}
        </Group>
        <BlockBadges block={block} />
        {block.description && (
          <Text size="sm" lineClamp={3}>
            {block.description}
          </Text>
        )}
        {block.tags.length > 0 && (
          <Text size="xs" c="dimmed">
            {/* A tag not (yet) read has no name to show: never its internal id. */}
            Tags: {block.tags.map((id) => tagName(id) ?? '…').join(', ')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** Scope, kind, fork, favorite and deprecation as words, never as colour alone. */
export function BlockBadges({ block }: { block: Block }) {
  return (
    <Group gap={6}>
      <Badge variant="light" color={block.scope === 'global' ? 'blue' : 'grape'}>
        {block.scope === 'global' ? 'Global' : 'Yours'}
      </Badge>
      {block.kind === 'layout' && <Badge variant="outline">Layout</Badge>}
      {block.block_type === 'markdown' && <Badge variant="outline">Markdown</Badge>}
      {block.forked_from_id !== null && <Badge variant="outline">Fork</Badge>}
      {block.is_favorite && (
        <Badge variant="light" color="yellow">
          Favorite
        </Badge>
      )}
      {block.is_deprecated && (
        <Badge variant="filled" color="red">
          Deprecated
        </Badge>
      )}
    </Group>
  );
}
