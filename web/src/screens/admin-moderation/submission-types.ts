import type { paths } from '../../api/client';

export type AdminSubmission =
  paths['/api/admin/block-submissions']['get']['responses'][200]['content']['application/json']['data'][number];
export type SubmissionReview =
  paths['/api/admin/block-submissions/{id}']['get']['responses'][200]['content']['application/json'];
export type Status = AdminSubmission['status'];

export const submissionsKey = ['admin', 'block-submissions'] as const;

/** Dark enough on their light tint for 4.5:1 at badge size. */
export const STATUS = {
  pending: { label: 'Pending', color: 'dark' },
  approved: { label: 'Approved', color: 'green.9' },
  rejected: { label: 'Rejected', color: 'red.9' },
} as const satisfies Record<Status, { label: string; color: string }>;

export const versionText = (v: { major: number; minor: number } | null) => (v ? `${v.major}.${v.minor}` : '');

/** The block by its submitted name and version: what people call it, never its id. */
export const blockTitle = (s: Pick<AdminSubmission, 'block_name' | 'version'>) =>
  s.version ? `${s.block_name} ${versionText(s.version)}` : s.block_name;
