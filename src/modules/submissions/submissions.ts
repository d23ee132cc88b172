import type { PageRequest } from '../../shared/pagination.js';

export type SubmissionStatus = 'pending' | 'approved' | 'rejected';

export interface Submission {
  id: number;
  block_id: number;
  status: SubmissionStatus;
  reason: string | null;
  approved_block_id: number | null;
  created_at: string;
  decided_at: string | null;
}

export interface OwnedSubmission extends Submission {
  user_id: number;
}

/** Port: submissions of private blocks to the global catalog. */
export interface SubmissionsRepository {
  /** Throws a `conflict` AppError when one is already pending for the block. */
  create(input: { blockId: number; userId: number; now: string }): Promise<Submission>;
  find(id: number): Promise<OwnedSubmission | undefined>;
  list(
    query: { userId?: number; status?: SubmissionStatus } & PageRequest,
  ): Promise<{ rows: Submission[]; total: number }>;
  /** Deletes a pending one; false when it was no longer pending. */
  withdraw(id: number): Promise<boolean>;
  /**
   * The global copy of the block (its current revision as 1.0, its tags) and the
   * decision, in one transaction. Throws a `conflict` AppError when no longer pending.
   */
  approve(input: { id: number; adminId: number; now: string }): Promise<Submission>;
  /** Throws a `conflict` AppError when no longer pending. */
  reject(input: { id: number; reason: string; now: string }): Promise<Submission>;
}
