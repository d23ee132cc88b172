/**
 * The `migrations` a block update carries, on the wire: checked by the
 * migration rules, which answer 422 at exact paths, so the body schema only
 * bounds them. Apart from blocks.ts, which imports it.
 */
import { Type } from 'typebox';
import { MIGRATION_STEPS_LIMIT, STEP_OPS } from '../../modules/blocks/migrations/index.js';
import { StringEnum } from './common.js';

export const MIGRATIONS_DESCRIPTION =
  'value migrations from the current revision to the one this update makes, in order: each step an object with ' +
  '`op` and its paths. `rename {from, to}` (same object), `move {from, to}` (anywhere: into or out of objects and ' +
  'list items), `set {to, value}`, `default {to, value}` (where no value is), `convert {from, to?, separator?}` ' +
  '(string, number, boolean, list), `drop {from}`, `derive {to, expression}` (a Liquid template over the values; ' +
  '`item` is the list item for a `to` in `[]`). `from` names a field of the current revision, `to` one of the new; ' +
  'paths are names joined by dots, `[]` for every item (item goes to item), `[N]` for one: `author.name`, ' +
  '`items[].caption`, `slides[0].image`. A wrong path is 422 at `migrations[i].from` (or `.to`, `.value`, ' +
  '`.expression`). Stored with the revision; upgrading across several revisions chains them';

/** The `migrations` property of a block update. */
export const MigrationsInput = Type.Array(Type.Object({ op: StringEnum(STEP_OPS) }, { additionalProperties: true }), {
  maxItems: MIGRATION_STEPS_LIMIT,
  description: MIGRATIONS_DESCRIPTION,
});
