import type { PageRequest } from '../../shared/pagination.js';
import type { BlockFields, BlockKind, Revision, Version } from '../blocks/blocks.js';

export type SubmissionStatus = 'pending' | 'approved' | 'rejected';

export interface Submission {
  id: number;
  block_id: number;
  status: SubmissionStatus;
  reason: string | null;
  approved_block_id: number | null;
  created_at: string;
  decided_at: string | null;
  /** The block's name as submitted (its current one on submissions decided before names were kept). */
  block_name: string;
  /** The version submitted; null on submissions decided before it was kept. */
  version: Version | null;
}

/** What the moderation list shows: who submitted it, and whether the block moved on since. */
export interface AdminSubmission extends Submission {
  author: { id: number; email: string };
  /** The block's content, texts or type differ from what was submitted; null when nothing was kept to compare. */
  changed_since_submitted: boolean | null;
  /** The block's version now. */
  current_version: Version | null;
}

/** One submission with what an administrator reviews: exactly what the approval would copy. */
export interface SubmissionReview extends AdminSubmission {
  block: BlockFields & { kind: BlockKind };
  revision: Revision | null;
}

/** The block as submitted: the fields an approval copies beside the revision. */
export interface Frozen {
  revisionId: number;
  fields: BlockFields;
}

/**
 * A submission as stored, beside its block as it stands now. The service
 * decides what each contour shows of it.
 */
export interface SubmissionRow {
  id: number;
  block_id: number;
  user_id: number;
  status: SubmissionStatus;
  reason: string | null;
  approved_block_id: number | null;
  created_at: string;
  decided_at: string | null;
  author_email: string;
  /** Null on submissions decided before what was submitted was kept. */
  frozen: Frozen | null;
  version: Version | null;
  current: { fields: BlockFields; kind: BlockKind; revisionId: number | null; version: Version | null };
}

/** Port: submissions of private blocks to the global catalog. */
export interface SubmissionsRepository {
  /** Throws a `conflict` AppError when one is already pending for the block. */
  create(input: { blockId: number; userId: number; frozen: Frozen; now: string }): Promise<SubmissionRow>;
  find(id: number): Promise<SubmissionRow | undefined>;
  list(
    query: { userId?: number; status?: SubmissionStatus } & PageRequest,
  ): Promise<{ rows: SubmissionRow[]; total: number }>;
  /** The revision kept by the submission, whole. */
  revision(id: number): Promise<Revision | undefined>;
  /** Deletes a pending one; false when it was no longer pending. */
  withdraw(id: number): Promise<boolean>;
  /**
   * The global copy of the block as submitted (the kept revision as 1.0, the
   * kept texts and type, the block's tags) and the decision, in one
   * transaction. Throws a `conflict` AppError when no longer pending.
   */
  approve(input: { id: number; adminId: number; now: string }): Promise<SubmissionRow>;
  /** Throws a `conflict` AppError when no longer pending. */
  reject(input: { id: number; reason: string; now: string }): Promise<SubmissionRow>;
}
