import { DryRunQuery } from '../http/schemas/common.js';
import { PageBlockParams } from '../http/schemas/pages.js';
import type { ToolRoute } from './tool-route.js';

/** The tool that carries an instance's values through its block's value migrations. */
export const MIGRATION_TOOLS: readonly ToolRoute[] = [
  {
    name: 'migrate_block',
    description:
      'Move one outdated instance to its block’s current revision through the value migrations stored with each ' +
      'revision on the way (minor or major): use it when upgrade_block answers major_upgrade_blocked with ' +
      '`migratable: true`, or to apply a minor revision’s value fixes. Values a migration cannot make, or that ' +
      'would not validate, come back at their paths (placeholder_values.title) and nothing changes. `dry_run: 1` ' +
      'shows the values migrated, before and after, without writing. Give migrations with update_block (`migrations`).',
    method: 'POST',
    path: '/pages/:pageId/blocks/:pbId/migrate',
    query: DryRunQuery,
    params: PageBlockParams,
    expects: 'page',
  },
];
