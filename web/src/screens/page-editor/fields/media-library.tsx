import {
  Alert,
  Button,
  FileButton,
  Group,
  Image,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { unwrap, useApi } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import classes from './media-library.module.css';
import { escapeStaysInside } from './escape-inside';

export interface SiteUpload {
  name: string;
  url: string;
  bytes: number;
  created_at: string;
}

/** The alt text's hint, in the field and in the library. */
export const ALT_HINT =
  'Say what the image shows, for people who cannot see it. Leave it empty if it only decorates the page.';

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * The site's images in a dialog: upload one (it is chosen at once), choose
 * one by its thumbnail, or delete one the site no longer needs, with the alt
 * text that goes with the choice (kept with the image where it is used, not
 * with the upload: the same picture may say different things on two pages).
 * Choosing gives its URL and alt text to the field; nothing is saved until
 * the form is.
 */
export function MediaLibrary({
  siteId,
  opened,
  fieldLabel,
  current,
  alt,
  onClose,
  onChoose,
}: {
  siteId: number;
  opened: boolean;
  fieldLabel: string;
  current: string;
  /** The field's alt text: the dialog starts from it. */
  alt: string;
  onClose: () => void;
  onChoose: (image: { src: string; alt: string }) => void;
}) {
  const [words, setWords] = useState(alt);
  useEffect(() => {
    if (opened) setWords(alt);
  }, [opened, alt]);
  const api = useApi();
  const queryClient = useQueryClient();
  const key = ['site-uploads', siteId];
  const resetRef = useRef<() => void>(null);
  const [removing, setRemoving] = useState<SiteUpload | null>(null);
  const uploads = useQuery({
    queryKey: key,
    enabled: opened,
    queryFn: () =>
      unwrap(api.GET('/api/sites/{id}/uploads', { params: { path: { id: siteId } } })) as Promise<{
        data: SiteUpload[];
      }>,
  });
  const upload = useMutation({
    mutationFn: (file: File) =>
      unwrap(
        api.POST('/api/sites/{id}/s3/upload', {
          params: { path: { id: siteId } },
          // The file goes as it is, in a multipart body the browser builds.
          body: { file: file as unknown as string },
          bodySerializer: (body) => {
            const data = new FormData();
            data.append('file', body.file as unknown as File);
            return data;
          },
        }),
      ),
    onSettled: () => resetRef.current?.(),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: key });
      if (result?.url) onChoose({ src: result.url, alt: words });
    },
  });
  const remove = useMutation({
    mutationFn: (name: string) =>
      unwrap(api.DELETE('/api/sites/{id}/uploads/{name}', { params: { path: { id: siteId, name } } })),
    onSuccess: async () => {
      setRemoving(null);
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const list = uploads.data?.data ?? [];
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Choose an image for “${fieldLabel}”`}
      size="xl"
      {...escapeStaysInside(onClose)}
    >
      <Stack gap="sm">
        <TextInput
          label="Alt text"
          description={ALT_HINT}
          value={words}
          onChange={(event) => setWords(event.currentTarget.value)}
        />
        <Group gap="sm">
          <FileButton
            onChange={(file) => file && upload.mutate(file)}
            accept="image/jpeg,image/png,image/gif,image/webp"
            resetRef={resetRef}
          >
            {(props) => (
              <Button {...props} loading={upload.isPending}>
                Upload an image
              </Button>
            )}
          </FileButton>
          <Text size="sm" c="dimmed">
            JPEG, PNG, GIF or WebP. An upload is chosen at once.
          </Text>
        </Group>
        {upload.isError && (
          <Alert color="red" role="alert" title="The image was not uploaded">
            {errorMessage(upload.error)}
          </Alert>
        )}
        {remove.isError && (
          <Alert color="red" role="alert" title="The image was not deleted">
            {errorMessage(remove.error)}
          </Alert>
        )}
        {uploads.isPending && opened && <Text c="dimmed">Loading the site’s images…</Text>}
        {uploads.isError && (
          <Alert color="red" role="alert" title="Cannot list the site’s images">
            {errorMessage(uploads.error)}
          </Alert>
        )}
        {uploads.isSuccess && list.length === 0 && <Text size="sm">No images on this site yet: upload the first.</Text>}
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm" component="ul" className={classes.grid}>
          {list.map((item, i) => (
            <li key={item.name} className={classes.item} data-current={item.url === current || undefined}>
              <UnstyledButton
                className={classes.choose}
                onClick={() => onChoose({ src: item.url, alt: words })}
                aria-label={`Choose image ${i + 1} (${item.name}, ${size(item.bytes)})`}
                aria-current={item.url === current ? 'true' : undefined}
              >
                <Image src={item.url} alt="" h={110} fit="cover" radius="sm" loading="lazy" />
              </UnstyledButton>
              {removing?.name === item.name ? (
                <Group gap={4} mt={4} wrap="nowrap">
                  <Button
                    size="compact-xs"
                    color="red"
                    loading={remove.isPending}
                    onClick={() => remove.mutate(item.name)}
                  >
                    Delete
                  </Button>
                  <Button size="compact-xs" variant="default" onClick={() => setRemoving(null)}>
                    Keep
                  </Button>
                </Group>
              ) : (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  mt={4}
                  onClick={() => setRemoving(item)}
                  aria-label={`Delete image ${i + 1} (${item.name}) from the site`}
                >
                  Delete…
                </Button>
              )}
            </li>
          ))}
        </SimpleGrid>
      </Stack>
    </Modal>
  );
}
