import { fail, ok, pick, viaOf, type Planner } from '../step.js';
import { removeFolders, removeSite, subtree, type World } from '../world.js';

/** 403 for another user's site, 404 for none. */
const siteAccess = (w: World, who: number, id: number) => {
  const site = w.sites[id];
  return !site ? 404 : site.owner !== who ? 403 : 0;
};

export const createSite: Planner = (w, s) => ({
  call: {
    who: s.who,
    via: viaOf(s, false),
    method: 'POST',
    path: '/sites',
    body: s.fault ? (s.fault % 2 ? { name: '' } : { domain: 'x.test' }) : { name: `${w.token} site` },
  },
  dry: false,
  expect: () =>
    s.fault
      ? fail(400)
      : ok(201, (m, body) => {
          m.sites[body.id] = { id: body.id, owner: s.who, provider: 'none' };
        }),
});

export const updateSite: Planner = (w, s) => {
  const id = pick(w, w.sites, w.gone.sites, s.who, s.a);
  return {
    call: {
      who: s.who,
      via: viaOf(s, false),
      method: 'PUT',
      path: `/sites/${id}`,
      body: s.fault ? { name: 7 } : { name: `${w.token} site renamed`, domain: null },
    },
    dry: false,
    expect: (m) => (s.fault ? fail(400) : siteAccess(m, s.who, id) ? fail(siteAccess(m, s.who, id)) : ok(200)),
  };
};

export const deleteSite: Planner = (w, s) => {
  const id = pick(w, w.sites, w.gone.sites, s.who, s.a);
  return {
    call: { who: s.who, via: viaOf(s, false), method: 'DELETE', path: `/sites/${id}` },
    dry: false,
    expect: (m) => (siteAccess(m, s.who, id) ? fail(siteAccess(m, s.who, id)) : ok(204, (n) => removeSite(n, id))),
  };
};

/** The fake provider with its token, or with a wrong one (every publication then fails with 502). */
export const setProvider =
  (providerUrl: () => string, token: () => string): Planner =>
  (w, s) => {
    const id = pick(w, w.sites, w.gone.sites, s.who, s.a);
    const good = s.b % 4 !== 0;
    return {
      call: {
        who: s.who,
        via: viaOf(s, false),
        method: 'PUT',
        path: `/sites/${id}/provider/fourcms`,
        body: s.fault
          ? { base_url: providerUrl() }
          : { base_url: providerUrl(), token: good ? token() : 'wrong-token' },
      },
      dry: false,
      expect: (m) =>
        s.fault
          ? fail(400)
          : siteAccess(m, s.who, id)
            ? fail(siteAccess(m, s.who, id))
            : ok(200, (n) => {
                n.sites[id]!.provider = good ? 'ok' : 'bad-token';
              }),
    };
  };

/** A parent that is not one of the user's folders in `site` is a 422 at `parent_id`. */
const parentFits = (m: World, who: number, parent: number | null, site: number) => {
  if (parent === null) return true;
  const f = m.folders[parent];
  return f !== undefined && f.owner === who && f.site === site;
};

export const createFolder: Planner = (w, s) => {
  const site = pick(w, w.sites, w.gone.sites, s.who, s.a);
  const inSite = (f: { owner: number; site: number }) => f.owner === s.who && f.site === site;
  const parent = s.b % 3 === 0 ? null : (pick(w, w.folders, w.gone.folders, s.who, s.c, inSite, null) as number | null);
  return {
    call: {
      who: s.who,
      via: viaOf(s, false),
      method: 'POST',
      path: '/folders',
      body: s.fault ? { site_id: site, name: '' } : { site_id: site, parent_id: parent, name: `${w.token} folder` },
    },
    dry: false,
    expect: (m) => {
      if (s.fault) return fail(400);
      const access = siteAccess(m, s.who, site);
      if (access) return fail(access);
      if (!parentFits(m, s.who, parent, site)) return fail(422);
      return ok(201, (n, body) => {
        n.folders[body.id] = { id: body.id, owner: s.who, site, parent };
      });
    },
  };
};

export const updateFolder: Planner = (w, s) => {
  const id = pick(w, w.folders, w.gone.folders, s.who, s.a);
  // Sometimes to the root, sometimes under another folder (its own subtree included: a cycle).
  const site = w.folders[id]?.site;
  const inSite = (f: { owner: number; site: number }) => f.owner === s.who && f.site === site;
  const parent = s.b % 3 === 0 ? null : (pick(w, w.folders, w.gone.folders, s.who, s.c, inSite, null) as number | null);
  return {
    call: {
      who: s.who,
      via: viaOf(s, false),
      method: 'PUT',
      path: `/folders/${id}`,
      body: s.fault ? { name: '' } : { name: `${w.token} folder moved`, parent_id: parent },
    },
    dry: false,
    expect: (m) => {
      if (s.fault) return fail(400);
      const folder = m.folders[id];
      if (!folder) return fail(404);
      if (folder.owner !== s.who) return fail(403);
      if (!parentFits(m, s.who, parent, folder.site)) return fail(422);
      if (parent !== null && subtree(m, id).includes(parent)) return fail(422);
      return ok(200, (n) => {
        n.folders[id]!.parent = parent;
      });
    },
  };
};

export const deleteFolder: Planner = (w, s) => {
  const id = pick(w, w.folders, w.gone.folders, s.who, s.a);
  return {
    call: { who: s.who, via: viaOf(s, false), method: 'DELETE', path: `/folders/${id}` },
    dry: false,
    expect: (m) => {
      const folder = m.folders[id];
      if (!folder) return fail(404);
      if (folder.owner !== s.who) return fail(403);
      return ok(204, (n) => removeFolders(n, subtree(n, id)));
    },
  };
};
