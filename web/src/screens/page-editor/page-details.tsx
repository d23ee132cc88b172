import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap, useApi } from '../../api/client';
import { ErrorSummary } from '../../forms/error-summary';
import { useServerErrors } from '../../forms/server-errors';
import type { PageWithBlocks } from './use-page-blocks';

const ALL = { query: { limit: 200, offset: 0 } };
const META = ['meta_title', 'meta_description', 'meta_keywords', 'meta_robots'] as const;

/** A dialog with the page's metadata: name, site, folder, slug (articles) and the meta fields; the kind is fixed. */
export function PageDetailsModal({
  page,
  opened,
  onClose,
  onSaved,
}: {
  page: PageWithBlocks;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Page details" size="lg">
      {opened && <PageDetailsForm page={page} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

const text = (value: string | null) => value ?? '';
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

function PageDetailsForm({
  page,
  onClose,
  onSaved,
}: {
  page: PageWithBlocks;
  onClose: () => void;
  onSaved: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const article = page.kind === 'article';
  const sites = useQuery({ queryKey: ['sites'], queryFn: () => unwrap(api.GET('/api/sites', { params: ALL })) });
  const folders = useQuery({ queryKey: ['folders'], queryFn: () => unwrap(api.GET('/api/folders', { params: ALL })) });
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: page.name,
      site_id: page.site_id === null ? '' : String(page.site_id),
      folder_id: page.folder_id === null ? '' : String(page.folder_id),
      slug: text(page.slug),
      meta_title: text(page.meta_title),
      meta_description: text(page.meta_description),
      meta_keywords: text(page.meta_keywords),
      meta_robots: text(page.meta_robots),
    },
    validate: {
      name: (value) => (value.trim() ? null : 'Give the page a name.'),
      slug: (value) =>
        !value.trim() || /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value.trim())
          ? null
          : 'Lower-case letters and digits separated by hyphens, e.g. spring-sale.',
    },
  });
  const errors = useServerErrors(form);
  const save = useMutation({
    mutationFn: (values: typeof form.values) =>
      unwrap(
        api.PUT('/api/pages/{id}', {
          params: { path: { id: page.id } },
          body: {
            name: values.name.trim(),
            ...(values.site_id ? { site_id: Number(values.site_id) } : {}),
            folder_id: values.folder_id ? Number(values.folder_id) : null,
            ...(article ? { slug: orNull(values.slug) } : {}),
            ...Object.fromEntries(META.map((key) => [key, orNull(values[key])])),
          },
        }),
      ),
    onSuccess: async () => {
      onSaved();
      onClose();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['page', page.id] }),
        queryClient.invalidateQueries({ queryKey: ['pages'] }),
      ]);
    },
    onError: errors.showError,
  });

  const siteFolders = (folders.data?.data ?? []).filter((f) => String(f.site_id) === form.values.site_id);
  return (
    <form
      noValidate
      aria-label="Page details"
      onSubmit={form.onSubmit((values) => {
        errors.clear();
        save.mutate(values);
      })}
    >
      <Stack gap="sm">
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not save the details" />
        {(sites.isError || folders.isError) && (
          <Alert color="red" role="alert">
            Cannot load your sites and folders; the name and meta fields can still be saved.
          </Alert>
        )}
        <Text size="sm">Kind: {page.kind} (fixed when the page was created).</Text>
        <TextInput label="Name" required maxLength={255} {...form.getInputProps('name')} />
        <Select
          label="Site"
          required
          allowDeselect={false}
          placeholder={page.site_id === null ? 'Choose a site' : undefined}
          data={(sites.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          {...form.getInputProps('site_id')}
          onChange={(value: string | null) => {
            form.setFieldValue('site_id', value ?? '');
            form.setFieldValue('folder_id', '');
          }}
        />
        <Select
          label="Folder"
          clearable
          placeholder="At the root"
          data={siteFolders.map((f) => ({ value: String(f.id), label: f.name }))}
          {...form.getInputProps('folder_id')}
          // null, not '': an empty string is a value to Select, which would offer to clear it.
          value={form.values.folder_id || null}
          onChange={(value: string | null) => form.setFieldValue('folder_id', value ?? '')}
        />
        {article && (
          <TextInput
            label="Slug"
            description="The page’s address on the site; unique within the site."
            maxLength={255}
            {...form.getInputProps('slug')}
          />
        )}
        <TextInput label="Meta title" {...form.getInputProps('meta_title')} />
        <Textarea label="Meta description" rows={3} {...form.getInputProps('meta_description')} />
        <TextInput label="Meta keywords" {...form.getInputProps('meta_keywords')} />
        <TextInput label="Meta robots" placeholder="index, follow" {...form.getInputProps('meta_robots')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
