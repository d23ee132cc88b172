import { unprocessable, type FieldError } from '../../shared/errors.js';
import type { NewRevision, Revision, TemplateChecker } from './blocks.js';
import { isObject } from '../../shared/is-object.js';
import { checkMigrations, type MigrationStep } from './migrations/index.js';

/** The steps that fix values where they stand: they write the current revision's fields, and take nothing away. */
const FIXES: ReadonlySet<string> = new Set(['set', 'default', 'derive']);

/**
 * Checks a block update's `migrations` against the current revision's fields
 * and the new one's, and puts them on the new revision: 422 at each wrong
 * place (`migrations[2].from`). A derive expression must parse as a template
 * does (its line and column). Without a new revision, they fix values on the
 * current one (set, default, derive only, checked against its fields) and are
 * answered, to be appended to its migrations; a block without a revision has
 * nothing to migrate to: 422 at `migrations`.
 */
export async function attachMigrations(
  input: unknown[],
  current: Pick<Revision, 'schema_content'> | null,
  revision: NewRevision | null,
  templates: TemplateChecker,
): Promise<MigrationStep[] | undefined> {
  if (!current)
    throw unprocessable('Migrations go with a revision: see errors[].', [
      {
        path: 'migrations',
        message: 'Migrations lead from one revision to the next: the first revision has no revision before it.',
        code: 'not_allowed',
      },
    ]);
  if (!revision) {
    const errors = input.flatMap((step, i) =>
      isObject(step) && typeof step.op === 'string' && !FIXES.has(step.op)
        ? [
            {
              path: `migrations[${i}].op`,
              message:
                'Without a new revision, steps fix values of the current one: set, default or derive. ' +
                'rename, move, convert and drop go with a change of schema_content.',
              code: 'not_allowed' as const,
            },
          ]
        : [],
    );
    if (errors.length) throw unprocessable('The migrations are not valid: see errors[].', errors);
  }
  const target = revision ?? { schema_content: current.schema_content };
  const checked = checkMigrations(input, current.schema_content, target.schema_content);
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
  if (!revision) return checked.steps;
  revision.migrations = checked.steps;
  return undefined;
}
