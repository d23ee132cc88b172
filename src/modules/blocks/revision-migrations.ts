import { unprocessable, type FieldError } from '../../shared/errors.js';
import type { NewRevision, Revision, TemplateChecker } from './blocks.js';
import { checkMigrations } from './migrations/index.js';

/**
 * Checks a block update's `migrations` against the current revision's fields
 * and the new one's, and puts them on the new revision: 422 at each wrong
 * place (`migrations[2].from`). A derive expression must parse as a template
 * does (its line and column). Without a new revision there is nothing to
 * migrate to: 422 at `migrations`.
 */
export async function attachMigrations(
  input: unknown[],
  current: Pick<Revision, 'schema_content'> | null,
  revision: NewRevision | null,
  templates: TemplateChecker,
): Promise<void> {
  if (!current || !revision) {
    const why = current
      ? 'nothing in template, css, js or schema_content changes, so no revision is made'
      : 'the first revision has no revision before it';
    throw unprocessable('Migrations go with a new revision: see errors[].', [
      { path: 'migrations', message: `Migrations lead from one revision to the next: ${why}.`, code: 'not_allowed' },
    ]);
  }
  const checked = checkMigrations(input, current.schema_content, revision.schema_content);
  if (!checked.ok) throw unprocessable('The migrations are not valid: see errors[].', checked.errors);
  const errors: FieldError[] = [];
  for (const [i, step] of checked.steps.entries()) {
    if (step.op !== 'derive') continue;
    const problem = await templates.check(step.expression);
    if (problem)
      errors.push({
        path: `migrations[${i}].expression`,
        message: problem.message,
        code: 'invalid',
        line: problem.line,
        column: problem.column,
      });
  }
  if (errors.length) throw unprocessable('The migrations are not valid: see errors[].', errors);
  revision.migrations = checked.steps;
}
