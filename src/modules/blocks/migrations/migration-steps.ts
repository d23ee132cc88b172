/**
 * The words of value migrations: the steps a block update may carry from the
 * previous revision's fields to its own, and what applying them gives. This
 * file imports nothing of ours but types, so the render threads load it too.
 */
import type { ErrorCode } from '../../../shared/errors.js';
import type { FieldDefinition } from '../schema/field-vocabulary.js';

/**
 * A path into an instance's values: field names joined by dots, each followed
 * by `[]` (every item of a list) or `[N]` (item N): `title`, `author.name`,
 * `items[].caption`, `slides[0].image`. It always ends with a field name.
 */
export type ValuePath = string;

/** A revision's version (the blocks module's `Version`, said here so that this file imports no module file). */
export interface Version {
  major: number;
  minor: number;
}

export const STEP_OPS = ['rename', 'move', 'set', 'default', 'convert', 'drop', 'derive'] as const;
export type StepOp = (typeof STEP_OPS)[number];

/** A field renamed where it stands (same parent): `from` in the old fields, `to` in the new. */
export interface RenameStep {
  op: 'rename';
  from: ValuePath;
  to: ValuePath;
}
/** A value moved anywhere: into or out of an object, into or out of a list item (`[N]`), item to item (`[]` pair up in order). */
export interface MoveStep {
  op: 'move';
  from: ValuePath;
  to: ValuePath;
}
/** A value given to every instance (every item for `[]`), replacing what is there. */
export interface SetStep {
  op: 'set';
  to: ValuePath;
  value: unknown;
}
/** A value given where none is (absent or null). */
export interface DefaultStep {
  op: 'default';
  to: ValuePath;
  value: unknown;
}
/** A value turned into the new field's kind (string, number, boolean or list); `to` defaults to `from`. */
export interface ConvertStep {
  op: 'convert';
  from: ValuePath;
  to?: ValuePath;
  /** Between a list and a string: split on it (items trimmed, empty ones left out), joined with it and a space. Default `,`. */
  separator?: string;
}
/** A value given up on purpose: what a removed field held is not carried over. */
export interface DropStep {
  op: 'drop';
  from: ValuePath;
}
/**
 * A value made from others by a Liquid template (`{{ first }} {{ last }}`), run
 * with the values as they stand at this step (and `item`, the list item, when
 * `to` goes into `[]`), under the renderer's limits; its text is converted to
 * the new field's kind.
 */
export interface DeriveStep {
  op: 'derive';
  to: ValuePath;
  expression: string;
}

export type MigrationStep = RenameStep | MoveStep | SetStep | DefaultStep | ConvertStep | DropStep | DeriveStep;

/** One revision of a chain: its version, its fields, and the steps that lead to it from the revision before. */
export interface MigrationLink {
  version: Version;
  fields: FieldDefinition[];
  migrations: MigrationStep[];
}

/** One value a step carried, set or made: at `path` after the step (`from` where it came from). */
export interface MigratedValue {
  /** The version whose migrations hold the step, and the step's index in them. */
  version: Version;
  step: number;
  op: StepOp;
  from?: string;
  path: string;
  before: unknown;
  after: unknown;
}

/** A value a step could not make (a conversion that cannot convert, a derive over its limits). */
export interface MigrationProblem {
  version: Version;
  step: number;
  path: string;
  message: string;
  code: ErrorCode;
}

export interface MigrationOutcome {
  values: Record<string, unknown>;
  migrated: MigratedValue[];
  problems: MigrationProblem[];
}

/**
 * Runs one derive expression: its text, or why not (a limit, an error).
 * On the render threads it is LiquidJS under the renderer's limits.
 */
export type DeriveFn = (
  expression: string,
  scope: Record<string, unknown>,
) => { ok: true; text: string } | { ok: false; message: string; limit: boolean };

/** The longest derive expression a step may hold, in characters. */
export const DERIVE_EXPRESSION_LIMIT = 4096;
/** The longest text a derive may make, in characters. */
export const DERIVE_OUTPUT_LIMIT = 65_536;
/** The most steps one revision may carry. */
export const MIGRATION_STEPS_LIMIT = 200;
