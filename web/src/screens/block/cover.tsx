import { Alert, Button, FileInput, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { Block } from '../blocks.screen';

/** The cover shown in the library; its owner uploads a new one (JPEG, PNG, GIF or WebP, at most 5 MB). */
export function Cover({ block, editable }: { block: Block; editable: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
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
    onSuccess: (result) => {
      setFile(null);
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
          <Group align="flex-end" wrap="wrap">
            <FileInput
              label="Cover image"
              description="JPEG, PNG, GIF or WebP, at most 5 MB; 16:9 looks best"
              accept="image/jpeg,image/png,image/gif,image/webp"
              value={file}
              onChange={setFile}
              clearable
              style={{ flex: '1 1 260px' }}
              error={upload.isError ? errorMessage(upload.error) : undefined}
            />
            <Button disabled={!file} loading={upload.isPending} onClick={() => file && upload.mutate(file)}>
              Upload cover
            </Button>
          </Group>
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
