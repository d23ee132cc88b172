import { Alert, Button, FileButton, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Block } from '../blocks.screen';

/**
 * The cover shown in the library; its owner uploads a new one (JPEG, PNG,
 * GIF or WebP, at most 5 MB). One button opens the file chooser, by mouse
 * or keyboard, and the chosen file is uploaded at once. (There was a file
 * field and a separate "Upload cover" button, disabled until a file was
 * chosen: a click on that button, the one that says what a person wants,
 * did nothing.)
 */
export function Cover({ block, editable }: { block: Block; editable: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const hintId = useId();
  // Clears the hidden input, so that choosing the same file again (after a refusal) uploads again.
  const resetRef = useRef<() => void>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) =>
      unwrap(
        api.POST('/api/blocks/{id}/cover', {
          params: { path: { id: block.id } },
          // The file goes as it is, in a multipart body the browser builds.
          body: { file: chosen as unknown as string },
          bodySerializer: (body) => {
            const data = new FormData();
            data.append('file', body.file as unknown as File);
            return data;
          },
        }),
      ),
    onSettled: () => resetRef.current?.(),
    onSuccess: (result) => {
      queryClient.setQueryData(['block', block.id], result.block);
      void queryClient.invalidateQueries({ queryKey: ['blocks'] });
    },
  });
  if (!editable && !block.cover_url) return null;
  return (
    <section aria-labelledby="cover-title">
      <Title order={2} size="h3" id="cover-title" mb="xs">
        Cover
      </Title>
      <Stack gap="xs">
        {block.cover_url ? (
          <Image src={block.cover_url} alt={`Cover of ${block.name}`} maw={480} radius="sm" />
        ) : (
          <Text size="sm">No cover yet.</Text>
        )}
        {editable && (
          <Group gap="sm" wrap="wrap">
            <FileButton
              onChange={(file) => file && upload.mutate(file)}
              accept="image/jpeg,image/png,image/gif,image/webp"
              resetRef={resetRef}
            >
              {(props) => (
                <Button {...props} loading={upload.isPending} aria-describedby={hintId}>
                  {block.cover_url ? 'Replace cover' : 'Upload cover'}
                </Button>
              )}
            </FileButton>
            <Text size="sm" c="dimmed" id={hintId}>
              JPEG, PNG, GIF or WebP, at most 5 MB; 16:9 looks best.
            </Text>
          </Group>
        )}
        {upload.isError && (
          <Alert color="red" role="alert" p="xs" title="The cover was not uploaded">
            {errorMessage(upload.error)}
          </Alert>
        )}
        {upload.isSuccess && (
          <Alert color="green" role="status" p="xs">
            The cover is uploaded.
          </Alert>
        )}
      </Stack>
    </section>
  );
}
