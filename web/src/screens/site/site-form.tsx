import { Button, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap, useApi, type paths } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { ConfirmModal } from '../../forms/confirm-modal';
import { FormPanel } from '../../forms/form-panel';
import { useServerErrors } from '../../forms/server-errors';

export type Site = paths['/api/sites/{id}']['get']['responses'][200]['content']['application/json'];
export const sitesKey = ['sites'] as const;
export const siteKey = (id: number) => ['sites', id] as const;

/**
 * The one form of a site's name and domain: "Create a site" on the sites
 * screen (`site` null), "Name and layout" on a site's screen, where it also
 * chooses the layout.
 */
export function SiteForm({ site }: { site: Site | null }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const layouts = useQuery({
    queryKey: ['layouts'],
    queryFn: () => unwrap(api.GET('/api/layouts', { params: { query: { limit: 200, offset: 0 } } })),
    enabled: site !== null,
  });
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: site?.name ?? '', domain: site?.domain ?? '', layout_id: site?.layout_id?.toString() ?? '' },
    validate: { name: (value) => (value.trim() ? null : 'Give the site a name.') },
  });
  const errors = useServerErrors(form);
  const save = useMutation({
    mutationFn: ({ name, domain, layout_id }: typeof form.values) => {
      const body = { name: name.trim(), domain: domain.trim() || null };
      return site === null
        ? unwrap(api.POST('/api/sites', { body }))
        : unwrap(
            api.PUT('/api/sites/{id}', {
              params: { path: { id: site.id } },
              body: { ...body, layout_id: layout_id ? Number(layout_id) : null },
            }),
          );
    },
    onSuccess: (saved) => {
      if (site === null) form.reset();
      else queryClient.setQueryData(siteKey(site.id), saved);
      return queryClient.invalidateQueries({ queryKey: sitesKey, exact: true });
    },
    onError: errors.showError,
  });
  // Layouts usable here: global ones and the user's own that are not tied to another site.
  const choices = (layouts.data?.data ?? []).filter((l) => l.site_id === null || l.site_id === site?.id);
  const title = site === null ? 'Create a site' : 'Name and layout';
  return (
    <FormPanel
      title={title}
      failedTitle={site === null ? 'Could not create the site' : 'Could not save the site'}
      form={form}
      errors={errors}
      onValid={(values) => {
        save.reset();
        save.mutate(values);
      }}
    >
      <Group align="flex-start" wrap="wrap">
        <TextInput
          label="Name"
          required
          maxLength={255}
          style={{ flex: '1 1 200px' }}
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <TextInput
          label="Domain"
          description="Optional, e.g. news.example.com."
          maxLength={255}
          style={{ flex: '1 1 200px' }}
          key={form.key('domain')}
          {...form.getInputProps('domain')}
        />
      </Group>
      {site !== null && (
        <NativeSelect
          label="Layout"
          description={
            layouts.isError
              ? `Cannot load the layouts: ${errorMessage(layouts.error)}`
              : 'The frame around every page of this site.'
          }
          data={[
            { value: '', label: 'No layout' },
            ...choices.map((l) => ({
              value: String(l.id),
              label: l.scope === 'global' ? `${l.name} (global)` : l.name,
            })),
          ]}
          key={form.key('layout_id')}
          {...form.getInputProps('layout_id')}
        />
      )}
      <Group>
        <Button type="submit" loading={save.isPending}>
          {site === null ? 'Create site' : 'Save'}
        </Button>
        {site !== null && save.isSuccess && (
          <Text size="sm" role="status">
            Saved.
          </Text>
        )}
      </Group>
    </FormPanel>
  );
}

/** The one confirmation of deleting a site, from the list or from the site's screen; `onDeleted` after it. */
export function DeleteSiteModal({
  site,
  onClose,
  onDeleted,
}: {
  site: Site | null;
  onClose: () => void;
  onDeleted?: () => unknown;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/sites/{id}', { params: { path: { id } } })),
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: siteKey(id) });
      await queryClient.invalidateQueries({ queryKey: sitesKey, exact: true });
      if (onDeleted) await onDeleted();
      else close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={site !== null}
      title="Delete this site?"
      confirmLabel="Delete site"
      onConfirm={() => site && remove.mutate(site.id)}
      onClose={close}
      pending={remove.isPending}
      error={remove.error}
    >
      <Text>
        The site “{site?.name}”, its provider settings and its folders are deleted. Its pages stay, without a site;
        pages already published to its CMS stay there.
      </Text>
    </ConfirmModal>
  );
}
