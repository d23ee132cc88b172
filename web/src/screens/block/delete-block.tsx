import { Alert, Anchor, Button, List, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { unwrap, useApi } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ConfirmModal } from '../../forms/confirm-modal';
import type { Block } from '../blocks.screen';

/**
 * Deleting an own block, after a confirmation that names it. The service
 * refuses (409) while pages use it: the dialog then says so in words and
 * lists those pages, each a link to its editor, where the block is removed.
 */
export function DeleteBlock({ block }: { block: Block }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant="light" color="red" onClick={() => setAsking(true)}>
        Delete
      </Button>
      <DeleteBlockModal block={block} opened={asking} onClose={() => setAsking(false)} />
    </>
  );
}

function DeleteBlockModal({ block, opened, onClose }: { block: Block; opened: boolean; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const path = { params: { path: { id: block.id } } };
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/blocks/{id}', path)),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: ['block', block.id] });
      await queryClient.invalidateQueries({ queryKey: ['blocks'] });
      await navigate('/blocks', { state: { deleted: block.name } });
    },
  });
  const inUse = remove.error instanceof ApiError && remove.error.status === 409;
  // The pages that hold it, read again when the service says it is still in use.
  const usages = useQuery({
    queryKey: ['block', block.id, 'usages', 'all'],
    queryFn: () =>
      unwrap(api.GET('/api/blocks/{id}/usages', { params: { ...path.params, query: { limit: 200, offset: 0 } } })),
    enabled: inUse,
  });
  const pages = [...new Map((usages.data?.data ?? []).map((u) => [u.page_id, u.page_name])).entries()];
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={opened}
      title="Delete this block?"
      confirmLabel="Delete block"
      onConfirm={() => remove.mutate()}
      onClose={close}
      pending={remove.isPending}
      error={inUse ? null : remove.error}
    >
      <Text>“{block.name}” is deleted with all its revisions. This cannot be undone.</Text>
      {inUse && (
        <Alert color="red" role="alert" title="The block is still used on pages">
          <Text size="sm">
            A block on a page cannot be deleted. Open each page below, remove “{block.name}” from it, then delete the
            block again.
          </Text>
          {pages.length > 0 && (
            <List size="sm" mt="xs" aria-label="Pages that use the block">
              {pages.map(([id, name]) => (
                <List.Item key={id}>
                  <Anchor component={Link} to={`/pages/${id}`}>
                    {name}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
    </ConfirmModal>
  );
}
