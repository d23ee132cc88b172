import { DryRunQuery, IdParams } from '../http/schemas/common.js';
import { UpgradePlanQuery } from '../http/schemas/upgrade-plan.js';
import { RevertBody, UpgradesBody } from '../http/schemas/upgrade-sets.js';
import type { ToolRoute } from './tool-route.js';

/** The tools that bring a block's instances, on all your pages, to a newer revision. */
export const UPGRADE_TOOLS: readonly ToolRoute[] = [
  {
    name: 'get_upgrade_plan',
    description:
      'Before upgrading a block’s instances on your pages: what an upgrade to its current revision (or `to`, ' +
      '"major.minor") would do. `summary` counts every instance behind (minor, through a migration, blocked by ' +
      '`major`, `values` or `bindings`, and the refused values by field and code); each entry of `data` (`limit`, ' +
      '`offset`) names the page and position, the fields added with the value they take, the values lost, the values ' +
      'and bindings that would not validate at their paths, and the instance’s HTML before and after with `changed`. ' +
      'Nothing is written.',
    method: 'GET',
    path: '/blocks/:id/upgrade-plan',
    params: IdParams,
    query: UpgradePlanQuery,
  },
  {
    name: 'upgrade_block_everywhere',
    description:
      'Apply the upgrade plan (read it first with get_upgrade_plan): every ready instance of the block on your pages ' +
      '(or only `pages`) moves to `to` (default: the block’s current version) with the values the plan shows, all ' +
      'pages or none, each page gaining one version; blocked instances stay, listed in `skipped`. `dry_run: 1` ' +
      'answers the same and writes nothing. Keep the answer’s `id`: revert_upgrade_set undoes it.',
    method: 'POST',
    path: '/blocks/:id/upgrades',
    params: IdParams,
    query: DryRunQuery,
    body: UpgradesBody,
  },
  {
    name: 'revert_upgrade_set',
    description:
      'Undo an upgrade set (the `id` upgrade_block_everywhere answered): each of its pages gains a version equal to ' +
      'its version before the set, all or none. A page changed since is refused (409 at `pages[i]`) unless `force: ' +
      'true`, which undoes that later change too. `dry_run: 1` answers the same and writes nothing.',
    method: 'POST',
    path: '/upgrade-sets/:id/revert',
    params: IdParams,
    query: DryRunQuery,
    body: RevertBody,
  },
];
