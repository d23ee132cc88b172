import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { conflict, forbidden, notFound, unprocessable } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { BlockFields } from '../blocks/blocks.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import { buildExample } from '../blocks/schema/index.js';
import type { PageRenderingService } from '../publishing/page-rendering.service.js';
import type {
  AdminSubmission,
  Submission,
  SubmissionReview,
  SubmissionRow,
  SubmissionStatus,
  SubmissionsRepository,
} from './submissions.js';

/**
 * pending → approved (a global copy is made) | rejected (with a reason); a
 * pending one can be withdrawn. A submission keeps what was submitted (the
 * revision, the block's texts and type): administrators review exactly that,
 * and the approval copies exactly that, whatever the author changed since.
 */
export class SubmissionsService {
  constructor(
    private readonly deps: {
      submissions: SubmissionsRepository;
      blocks: BlocksService;
      rendering: Pick<PageRenderingService, 'previewRevision'>;
      clock: Clock;
    },
  ) {}

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
    const { name, description, docs, block_type } = block;
    const row = await this.deps.submissions.create({
      blockId,
      userId: actor.userId,
      frozen: { revisionId: block.revision.id, fields: { name, description, docs, block_type } },
      now: this.now(),
    });
    return toSubmission(row);
  }

  async list(actor: Actor, page: PageRequest): Promise<Page<Submission>> {
    const { rows, total } = await this.deps.submissions.list({ ...page, userId: actor.userId });
    return pageOf(rows.map(toSubmission), total, page);
  }

  async withdraw(actor: Actor, id: number): Promise<void> {
    const submission = await this.own(actor, id);
    if (submission.status !== 'pending' || !(await this.deps.submissions.withdraw(id))) {
      throw conflict(
        `Submission ${id} is already ${submission.status === 'pending' ? 'decided' : submission.status}: only a pending one can be withdrawn.`,
      );
    }
  }

  async listAll(actor: Actor, query: PageRequest & { status?: SubmissionStatus }): Promise<Page<AdminSubmission>> {
    this.requireAdmin(actor);
    const { rows, total } = await this.deps.submissions.list(query);
    return pageOf(rows.map(toAdminSubmission), total, query);
  }

  /** What an administrator reviews: the submitted revision whole, and the block's texts as submitted. */
  async review(actor: Actor, id: number): Promise<SubmissionReview> {
    this.requireAdmin(actor);
    const row = await this.exists(id);
    const revision = row.frozen ? await this.deps.submissions.revision(id) : undefined;
    return {
      ...toAdminSubmission(row),
      block: { ...(row.frozen?.fields ?? row.current.fields), kind: row.current.kind },
      revision: revision ?? null,
    };
  }

  /** The submitted revision rendered with its example values (stub data in bound slots), as a block preview is. */
  async preview(actor: Actor, id: number): Promise<string> {
    this.requireAdmin(actor);
    const row = await this.exists(id);
    const revision = row.frozen && (await this.deps.submissions.revision(id));
    if (!row.frozen || !revision)
      throw notFound(`Submission ${id} was decided before submissions kept their revision: there is nothing to show.`);
    const fields = row.frozen.fields;
    const example = buildExample(revision.schema_content, fields.block_type === 'markdown' ? 'markdown' : 'schema');
    return this.deps.rendering.previewRevision(
      { id: row.block_id, ...fields },
      revision,
      {
        placeholder_values: example,
        bindings: null,
      },
      { userId: actor.userId, purpose: 'preview' },
    );
  }

  async approve(actor: Actor, id: number): Promise<Submission> {
    this.requireAdmin(actor);
    await this.exists(id);
    return toSubmission(await this.deps.submissions.approve({ id, adminId: actor.userId, now: this.now() }));
  }

  async reject(actor: Actor, id: number, reason: string): Promise<Submission> {
    this.requireAdmin(actor);
    await this.exists(id);
    return toSubmission(await this.deps.submissions.reject({ id, reason, now: this.now() }));
  }

  private async own(actor: Actor, id: number): Promise<SubmissionRow> {
    const submission = await this.exists(id);
    if (submission.user_id !== actor.userId) throw notFound(`Submission ${id} not found.`);
    return submission;
  }

  private async exists(id: number): Promise<SubmissionRow> {
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

function toSubmission(row: SubmissionRow): Submission {
  return {
    id: row.id,
    block_id: row.block_id,
    status: row.status,
    reason: row.reason,
    approved_block_id: row.approved_block_id,
    created_at: row.created_at,
    decided_at: row.decided_at,
    block_name: (row.frozen?.fields ?? row.current.fields).name,
    version: row.version,
  };
}

const sameFields = (a: BlockFields, b: BlockFields) =>
  a.name === b.name && a.description === b.description && a.docs === b.docs && a.block_type === b.block_type;

function toAdminSubmission(row: SubmissionRow): AdminSubmission {
  const frozen = row.frozen;
  return {
    ...toSubmission(row),
    author: { id: row.user_id, email: row.author_email },
    changed_since_submitted: frozen
      ? frozen.revisionId !== row.current.revisionId || !sameFields(frozen.fields, row.current.fields)
      : null,
    current_version: row.current.version,
  };
}
