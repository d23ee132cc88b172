import type { App, HttpDeps } from '../context.js';
import { actorOf, maybeDry } from '../context.js';
import { DryRunQuery, errorResponses, IdParams, PageQuery } from '../schemas/common.js';
import { AdoptionSchema } from '../schemas/adoption.js';
import {
  RevertBody,
  RevertedSetSchema,
  UpgradeSetSchema,
  UpgradeSetsPage,
  UpgradesBody,
} from '../schemas/upgrade-sets.js';

const tags = ['blocks'];

/** Upgrade everywhere and revert (issue 29, point 7): the plan applied to all your pages at once, and undone. */
export function upgradeRoutes(app: App, deps: HttpDeps) {
  const sets = deps.services.upgradeSets;

  app.get(
    '/blocks/:id/adoption',
    {
      schema: {
        tags,
        summary: 'How many of your instances of a block stand on each of its revisions, and on which pages',
        description:
          'Counted without reading values: each revision your instances stand on (newest first) with its count and ' +
          'its pages (id, name, how many instances there). The block’s current version is `version`; a revision is ' +
          '`current` when it is that one.',
        params: IdParams,
        response: { 200: AdoptionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => deps.services.upgradePlan.adoption(actorOf(request), request.params.id),
  );

  app.get(
    '/blocks/:id/upgrades',
    {
      schema: {
        tags,
        summary: 'Your upgrade sets of a block, newest first, to revert one again',
        description:
          'Each set made by `POST /blocks/{id}/upgrades` for this block: its target version, when it was made and ' +
          'reverted (null while it stands), and each page it moved with its versions before and after.',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: UpgradeSetsPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => sets.list(actorOf(request), request.params.id, request.query),
  );

  app.post(
    '/blocks/:id/upgrades',
    {
      schema: {
        tags,
        summary: 'Upgrade your instances of a block on all your pages (or the listed ones) at once: an upgrade set',
        description:
          'Applies the upgrade plan: every instance it calls ready moves to `to` (the block’s current version by ' +
          'default) with the values the plan shows, all or nothing, each page gaining one version; the blocked ones ' +
          'stay and are listed in `skipped`. Each page is checked against its bounds first: a page that cannot take ' +
          'it is refused at `pages[i]` and nothing is written. Keep the answer’s `id` to revert the set. With ' +
          '`dry_run=1`, the same answer and nothing written.',
        params: IdParams,
        querystring: DryRunQuery,
        body: UpgradesBody,
        response: { 200: UpgradeSetSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429) },
      },
    },
    async (request) =>
      maybeDry(request, deps, () => {
        const { to, pages, include_migratable } = request.body ?? {};
        const [major, minor] = to ? to.split('.').map(Number) : [];
        return sets.apply(actorOf(request), request.params.id, {
          to: to ? { major: major!, minor: minor! } : undefined,
          pages,
          include_migratable,
        });
      }),
  );

  app.post(
    '/upgrade-sets/:id/revert',
    {
      schema: {
        tags,
        summary: 'Undo an upgrade set: each of its pages back to its version before the set',
        description:
          'Each page of the set gains a new version equal to its version before the set, all pages or none. A page ' +
          'changed since the set is a 409 at `pages[i]` (its place in the set’s `pages`) unless `force`; a set ' +
          'reverted already is a 409. With `dry_run=1`, the same answer and nothing written.',
        params: IdParams,
        querystring: DryRunQuery,
        body: RevertBody,
        response: { 200: RevertedSetSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      maybeDry(request, deps, async () => {
        const { owner_id: _owner, ...set } = await sets.revert(actorOf(request), request.params.id, {
          force: request.body?.force === true,
        });
        return set;
      }),
  );
}
