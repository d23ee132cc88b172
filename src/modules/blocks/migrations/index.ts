export {
  DERIVE_EXPRESSION_LIMIT,
  DERIVE_OUTPUT_LIMIT,
  MIGRATION_STEPS_LIMIT,
  STEP_OPS,
  type DeriveFn,
  type MigratedValue,
  type MigrationLink,
  type MigrationOutcome,
  type MigrationProblem,
  type MigrationStep,
  type StepOp,
} from './migration-steps.js';
export { migrateValues } from './migrate-values.js';
export { checkMigrations, chainCoverage, uncoveredFields, type MigrationsCheck } from './migration-check.js';
export { convertTo } from './conversions.js';
