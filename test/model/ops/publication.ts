import { expectEqual, fail, ok, pick, viaOf, type Call, type Expect, type Planner, type StepSpec } from '../step.js';
import { all, type MPage, type World } from '../world.js';

const FAILURES = ['500', '401', 'malformed'] as const;

/**
 * Where the provider stands for a page of `who`: the status a publication
 * gets before the provider is called (404 another user's page, 400 no site or
 * no provider), 502 when the provider will refuse, 0 when it will answer.
 */
function providerState(m: World, who: number, pageId: number, call: Call): { status: number; published?: boolean } {
  const page = m.pages[pageId];
  if (!page || page.owner !== who) return { status: 404 };
  const site = page.site === null ? undefined : m.sites[page.site];
  return {
    status: 0,
    published: page.published,
    ...(site === undefined || site.provider === 'none'
      ? { status: 400 }
      : site.provider === 'bad-token' || call.providerFailure
        ? { status: 502 }
        : {}),
  };
}

/** The fourth call of a kind is preceded by a provider failure (500, 401, or a body that is not JSON). */
const failureOf = (d: number): Call['providerFailure'] => (d % 4 === 0 ? FAILURES[(d >> 2) % 3] : undefined);

/** Mostly a page of the user in a site with a provider, published or not as `published` says. */
const publishable = (w: World, s: StepSpec, published: boolean) => {
  const fits = (p: MPage) =>
    p.owner === s.who && p.published === published && p.site !== null && w.sites[p.site]?.provider !== 'none';
  return all(w.pages).some(fits) && s.b % 4 !== 0
    ? pick(w, w.pages, w.gone.pages, s.who, s.a, fits)
    : pick(w, w.pages, w.gone.pages, s.who, s.a);
};

export const publish: Planner = (w, s) => {
  const id = publishable(w, s, false);
  const call: Call = {
    who: s.who,
    via: viaOf(s, true),
    method: 'POST',
    path: `/pages/${id}/publish`,
    tool: 'publish_page',
    pathArgs: { id },
    body: s.fault ? {} : { rubric_ids: [1] },
    providerFailure: failureOf(s.d),
  };
  return {
    call,
    dry: false,
    claims: `publication of page ${id}`,
    expect: (m): Expect => {
      const state = providerState(m, s.who, id, call);
      if (state.status === 404) return fail(404);
      // An article without rubric_ids, or a page published already: 400 before the provider is asked.
      if (s.fault || state.published) return fail(400);
      if (state.status) return fail(state.status);
      return ok(200, (n) => {
        n.pages[id]!.published = true;
      });
    },
  };
};

export const publishUpdate: Planner = (w, s) => {
  const id = publishable(w, s, true);
  const call: Call = {
    who: s.who,
    via: viaOf(s, true),
    method: 'POST',
    path: `/pages/${id}/publish-update`,
    tool: 'publish_update',
    pathArgs: { id },
    body: s.fault ? { rubric_ids: [] } : {},
    providerFailure: failureOf(s.d),
  };
  return {
    call,
    dry: false,
    claims: `publication of page ${id}`,
    expect: (m): Expect => {
      const state = providerState(m, s.who, id, call);
      if (state.status === 404) return fail(404);
      if (!state.published || s.fault) return fail(400);
      return state.status ? fail(state.status) : ok(200);
    },
  };
};

export const publication: Planner = (w, s) => {
  const id = pick(w, w.pages, w.gone.pages, s.who, s.a);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'GET',
      path: `/pages/${id}/publication`,
      tool: 'get_publication',
      pathArgs: { id },
    },
    dry: false,
    expect: (m) => {
      const page = m.pages[id];
      if (!page || page.owner !== s.who) return fail(404);
      return ok(200, undefined, (n, body) =>
        expectEqual(`publication of page ${id}`, body.is_published, n.pages[id]!.published),
      );
    },
  };
};
