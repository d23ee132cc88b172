import { IdParams } from '../http/schemas/common.js';
import { UpgradePlanQuery } from '../http/schemas/upgrades.js';
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
];
