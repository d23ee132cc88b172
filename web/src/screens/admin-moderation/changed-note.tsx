import { Alert, Badge, Text } from '@mantine/core';
import { versionText, type SubmissionReview } from './submission-types';

/** In the list: the author changed the block after submitting it. */
export function ChangedBadge() {
  return (
    <Badge color="#a13b00" variant="outline">
      Changed since submitted
    </Badge>
  );
}

/**
 * On the review: what changed means for the decision. What is shown, and
 * what an approval copies, is the block as submitted.
 */
export function ChangedNote({ review }: { review: SubmissionReview }) {
  if (!review.changed_since_submitted) return null;
  const now = versionText(review.current_version);
  const then = versionText(review.version);
  return (
    <Alert color="orange" title="Changed since submitted" role="status">
      <Text size="sm">
        {review.author.email} has changed this block since submitting it
        {now && now !== then ? ` (it is at version ${now} now)` : ''}. Everything below is the block as submitted
        {then ? `, version ${then}` : ''}
        {review.status === 'pending'
          ? ', and approving copies exactly that, not the changes.'
          : '; the changes were not reviewed.'}
      </Text>
    </Alert>
  );
}
