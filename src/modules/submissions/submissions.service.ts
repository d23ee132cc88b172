import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { conflict, forbidden, notFound, unprocessable } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { OwnedSubmission, Submission, SubmissionStatus, SubmissionsRepository } from './submissions.js';

/** pending → approved (a global copy is made) | rejected (with a reason); a pending one can be withdrawn. */
export class SubmissionsService {
  constructor(private readonly deps: { submissions: SubmissionsRepository; blocks: BlocksService; clock: Clock }) {}

  async submit(actor: Actor, blockId: number): Promise<Submission> {
    const block = await this.deps.blocks.get(actor, blockId);
    if (block.scope === 'global')
      throw unprocessable(`Block ${blockId} is already global.`, [
        { path: 'id', message: 'Only private blocks are submitted.' },
      ]);
    if (!block.revision)
      throw unprocessable(`Block ${blockId} has no content yet: give it a template or schema first.`, [
        { path: 'id', message: 'The block has no revision.' },
      ]);
    return this.deps.submissions.create({ blockId, userId: actor.userId, now: this.now() });
  }

  async list(actor: Actor, page: PageRequest): Promise<Page<Submission>> {
    const { rows, total } = await this.deps.submissions.list({ ...page, userId: actor.userId });
    return pageOf(rows, total, page);
  }

  async withdraw(actor: Actor, id: number): Promise<void> {
    const submission = await this.own(actor, id);
    if (submission.status !== 'pending' || !(await this.deps.submissions.withdraw(id))) {
      throw conflict(
        `Submission ${id} is already ${submission.status === 'pending' ? 'decided' : submission.status}: only a pending one can be withdrawn.`,
      );
    }
  }

  async listAll(actor: Actor, query: PageRequest & { status?: SubmissionStatus }): Promise<Page<Submission>> {
    this.requireAdmin(actor);
    const { rows, total } = await this.deps.submissions.list(query);
    return pageOf(rows, total, query);
  }

  async approve(actor: Actor, id: number): Promise<Submission> {
    this.requireAdmin(actor);
    await this.exists(id);
    return this.deps.submissions.approve({ id, adminId: actor.userId, now: this.now() });
  }

  async reject(actor: Actor, id: number, reason: string): Promise<Submission> {
    this.requireAdmin(actor);
    await this.exists(id);
    return this.deps.submissions.reject({ id, reason, now: this.now() });
  }

  private async own(actor: Actor, id: number): Promise<OwnedSubmission> {
    const submission = await this.exists(id);
    if (submission.user_id !== actor.userId) throw notFound(`Submission ${id} not found.`);
    return submission;
  }

  private async exists(id: number): Promise<OwnedSubmission> {
    const submission = await this.deps.submissions.find(id);
    if (!submission) throw notFound(`Submission ${id} not found.`);
    return submission;
  }

  private requireAdmin(actor: Actor) {
    if (!actor.isAdmin) throw forbidden('Administrators only.');
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }
}
