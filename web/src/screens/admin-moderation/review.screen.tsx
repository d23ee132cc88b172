import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { formatDateTime } from '../../format';
import { PreviewFrame } from '../page-editor/preview-frame';
import { ChangedNote } from './changed-note';
import { DecisionModal, type Decision } from './decision-modal';
import { SubmittedCode, SubmittedFields, SubmittedTexts } from './submitted-content';
import { blockTitle, STATUS, submissionsKey, type AdminSubmission } from './submission-types';
import { DocumentTitle } from '../../shell/document-title';

/**
 * One submission as submitted: its texts, fields, template, CSS and JS, and a
 * preview of it, each from what the submission kept. The approval copies
 * exactly this; the screen says when the author has changed the block since.
 */
export function SubmissionReviewScreen() {
  const id = Number(useParams().id);
  const api = useApi();
  const review = useQuery({
    queryKey: [...submissionsKey, 'review', id],
    queryFn: () => unwrap(api.GET('/api/admin/block-submissions/{id}', { params: { path: { id } } })),
  });
  const [deciding, setDeciding] = useState<{ submission: AdminSubmission; decision: Decision } | null>(null);

  if (review.isPending) return <Text c="dimmed">Loading…</Text>;
  if (review.isError)
    return (
      <Stack maw={960}>
        <Anchor component={Link} to="/admin/moderation">
          Back to the moderation queue
        </Anchor>
        <Alert color="red" title="Cannot load the submission" role="alert">
          {errorMessage(review.error)}
        </Alert>
      </Stack>
    );
  const s = review.data;
  const status = STATUS[s.status];
  return (
    <Stack maw={960}>
      <Anchor component={Link} to="/admin/moderation">
        Back to the moderation queue
      </Anchor>
      <DocumentTitle title={`Review: ${blockTitle(s)}`} />
      <Title order={1}>Review: {blockTitle(s)}</Title>
      <Stack gap={4} role="group" aria-label="About this submission">
        <Group gap="xs">
          <Badge color={status.color} variant="outline">
            {status.label}
          </Badge>
          <Text size="sm">
            Submitted by {s.author.email} on {formatDateTime(s.created_at)}
          </Text>
        </Group>
        {s.decided_at && <Text size="sm">Decided on {formatDateTime(s.decided_at)}.</Text>}
        {s.status === 'rejected' && s.reason && <Text size="sm">Reason given: {s.reason}</Text>}
        {s.status === 'approved' && s.approved_block_id !== null && (
          <Text size="sm">
            <Anchor component={Link} to={`/blocks/${s.approved_block_id}`}>
              Open the global copy of {s.block_name}
            </Anchor>
          </Text>
        )}
      </Stack>
      <ChangedNote review={s} />
      {s.revision ? (
        <>
          <SubmittedTexts block={s.block} />
          <Preview id={id} title={blockTitle(s)} />
          <SubmittedFields fields={s.revision.schema_content} blockType={s.block.block_type} />
          <SubmittedCode revision={s.revision} />
        </>
      ) : (
        <Text>
          This submission was decided before submissions kept what was submitted: its content is not recorded.
        </Text>
      )}
      {s.status === 'pending' && (
        <section aria-labelledby="decision-title">
          <Title order={2} size="h3" id="decision-title" mb="xs">
            Decision
          </Title>
          <Text size="sm" mb="sm">
            Approving copies {blockTitle(s)} as shown above into the global catalog.
          </Text>
          <Group>
            <Button onClick={() => setDeciding({ submission: s, decision: 'approve' })}>Approve</Button>
            <Button variant="light" color="red" onClick={() => setDeciding({ submission: s, decision: 'reject' })}>
              Reject
            </Button>
          </Group>
        </section>
      )}
      <DecisionModal deciding={deciding} onClose={() => setDeciding(null)} />
    </Stack>
  );
}

/** The submitted revision with its example values, in the same sandbox as every preview (`allow-scripts` only). */
function Preview({ id, title }: { id: number; title: string }) {
  const api = useApi();
  const preview = useQuery({
    queryKey: [...submissionsKey, 'preview', id],
    queryFn: () =>
      unwrap(api.GET('/api/admin/block-submissions/{id}/preview', { params: { path: { id } }, parseAs: 'text' })),
  });
  return (
    <section aria-labelledby="preview-title">
      <Title order={2} size="h3" id="preview-title" mb="xs">
        Preview
      </Title>
      <PreviewFrame
        title={`Preview of ${title} as submitted`}
        html={preview.data}
        error={preview.error}
        pending={preview.isFetching}
        height={480}
        note={
          <Text size="sm" mb="xs">
            With the example values of its fields and sample data in live-data slots. The block’s own script runs here,
            sandboxed away from this app.
          </Text>
        }
      />
    </section>
  );
}
