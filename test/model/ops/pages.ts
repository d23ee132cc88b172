import { fail, nth, ok, pick, viaOf, type Expect, type Planner, type StepSpec } from '../step.js';
import {
  all,
  removePage,
  slugTaken,
  usableBlock,
  valuesFor,
  type MInstance,
  type MPage,
  type World,
} from '../world.js';

const SLUGS = ['home', 'news', 'about'];

/** Instances to send: `count` blocks picked from `n`, values fitting each block's schema unless `badValues`. */
export function instanceInputs(w: World, who: number, n: number, count: number, badValues: boolean) {
  return Array.from({ length: count }, (_, i) => {
    const id = pick(w, w.blocks, w.gone.blocks, who, n + i * 20, (b) => b.owner === who || b.scope === 'global');
    const block = w.blocks[id];
    return { block_id: id, placeholder_values: valuesFor(block?.field ?? 'title', !(badValues && i === 0)) };
  });
}

/**
 * Instances as the service checks them: an unavailable block (missing, or
 * another user's private one) is a 404; values that do not fit the block's
 * current schema a 400. Null when they are fine.
 */
export function instancesProblem(
  m: World,
  who: number,
  inputs: { block_id: number; placeholder_values: Record<string, unknown> }[],
): number | null {
  if (inputs.some((i) => !usableBlock(m, who, i.block_id))) return 404;
  const fits = (i: (typeof inputs)[number]) => {
    const block = m.blocks[i.block_id]!;
    return JSON.stringify(i.placeholder_values) === JSON.stringify(valuesFor(block.field));
  };
  return inputs.every(fits) ? null : 400;
}

/** New instances pinned to their block's current revision, with the ids the answer gave them. */
export const pinned = (m: World, ids: number[], inputs: { block_id: number }[]): MInstance[] =>
  inputs.map((input, i) => {
    const block = m.blocks[input.block_id]!;
    return { id: ids[i]!, block: block.id, major: block.major, minor: block.minor, field: block.field };
  });

const idsOf = (body: any, from = 0, count?: number): number[] =>
  (body.blocks as { id: number }[]).slice(from, count === undefined ? undefined : from + count).map((b) => b.id);

interface PageFieldsInput {
  site_id?: number;
  folder_id?: number | null;
  slug?: string | null;
}

/**
 * The page's site, folder and slug after `input`, checked as the service does:
 * the slug's form (400), the site (404, 403), the folder (422); or the status.
 */
function nextFields(
  m: World,
  who: number,
  base: Pick<MPage, 'site' | 'folder' | 'slug'>,
  input: PageFieldsInput,
): { status: number } | { site: number | null; folder: number | null; slug: string | null } {
  const slug = input.slug !== undefined ? input.slug : base.slug;
  const site = input.site_id !== undefined ? input.site_id : base.site;
  const folder = input.folder_id !== undefined ? input.folder_id : base.folder;
  if (slug !== null && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) return { status: 400 };
  if (input.site_id !== undefined) {
    const s = m.sites[input.site_id];
    if (!s) return { status: 404 };
    if (s.owner !== who) return { status: 403 };
  }
  if (folder !== null && (input.folder_id !== undefined || input.site_id !== undefined)) {
    const f = m.folders[folder];
    if (!f || f.owner !== who || f.site !== site) return { status: 422 };
  }
  return { site, folder, slug };
}

function pageFieldsFrom(w: World, s: StepSpec): PageFieldsInput {
  const site = pick(w, w.sites, w.gone.sites, s.who, s.a);
  const slug = s.b % 3 === 0 ? null : SLUGS[s.b % SLUGS.length]!;
  const inSite = (f: { owner: number; site: number }) => f.owner === s.who && f.site === site;
  const folder = s.c % 2 === 0 ? null : (pick(w, w.folders, w.gone.folders, s.who, s.c, inSite, null) as number | null);
  return { site_id: site, slug, folder_id: folder };
}

export const createPage: Planner = (w, s) => {
  const fields = pageFieldsFrom(w, s);
  const blocks = instanceInputs(w, s.who, s.d, s.d % 3, s.fault === 3);
  const body: Record<string, unknown> = { name: `${w.token} page`, ...fields, blocks };
  if (s.fault === 1) delete body.name;
  if (s.fault === 2) body.slug = 'Not A Slug';
  if (s.fault === 4) body.site_id = String(fields.site_id);
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'POST',
      path: '/pages',
      tool: 'create_page',
      query: s.dry ? { dry_run: 1 } : undefined,
      body,
    },
    dry: s.dry,
    expect: (m) => {
      if (s.fault === 1 || s.fault === 4) return fail(400);
      const next = nextFields(
        m,
        s.who,
        { site: null, folder: null, slug: null },
        { ...fields, slug: body.slug as string },
      );
      if ('status' in next) return fail(next.status);
      const problem = instancesProblem(m, s.who, blocks);
      if (problem) return fail(problem);
      if (slugTaken(m, next.site, next.slug)) return fail(409);
      return ok(201, (n, answer) => {
        n.pages[answer.id] = {
          id: answer.id,
          owner: s.who,
          ...next,
          instances: pinned(n, idsOf(answer), blocks),
          published: false,
          version: 1,
        };
      });
    },
  };
};

export const updatePage: Planner = (w, s) => {
  const id = pick(w, w.pages, w.gone.pages, s.who, s.a);
  const variant = s.b % 4;
  const fields = pageFieldsFrom(w, { ...s, a: s.c, b: s.d, c: s.b });
  const input: PageFieldsInput =
    variant === 0 ? {} : variant === 1 ? { slug: fields.slug } : variant === 2 ? fields : {};
  const blocks = variant === 3 ? instanceInputs(w, s.who, s.d, s.d % 3, s.fault === 3) : undefined;
  const body: Record<string, unknown> = { name: `${w.token} page v${s.d}`, ...input, ...(blocks && { blocks }) };
  if (s.fault === 1) body.name = '';
  if (s.fault === 2) body.slug = 'Not A Slug';
  return {
    call: {
      who: s.who,
      via: viaOf(s, true),
      method: 'PUT',
      path: `/pages/${id}`,
      tool: 'update_page',
      pathArgs: { id },
      query: s.dry ? { dry_run: 1 } : undefined,
      body,
    },
    dry: s.dry,
    expect: (m): Expect => {
      if (s.fault === 1) return fail(400);
      const page = m.pages[id];
      if (!page || page.owner !== s.who) return fail(404);
      const next = nextFields(m, s.who, page, s.fault === 2 ? { ...input, slug: 'Not A Slug' } : input);
      if ('status' in next) return fail(next.status);
      if (blocks) {
        const problem = instancesProblem(m, s.who, blocks);
        if (problem) return fail(problem);
      }
      if (slugTaken(m, next.site, next.slug, id)) return fail(409);
      return ok(200, (n, answer) => {
        const p = n.pages[id]!;
        Object.assign(p, next);
        p.version++;
        if (blocks) {
          n.gone.instances.push(...p.instances.map((i) => i.id));
          p.instances = pinned(n, idsOf(answer), blocks);
        }
      });
    },
  };
};

export const deletePage: Planner = (w, s) => {
  const id = pick(w, w.pages, w.gone.pages, s.who, s.a);
  return {
    call: { who: s.who, via: viaOf(s, false), method: 'DELETE', path: `/pages/${id}` },
    dry: false,
    expect: (m) => {
      const page = m.pages[id];
      if (!page || page.owner !== s.who) return fail(404);
      return ok(204, (n) => removePage(n, id));
    },
  };
};

/**
 * A page and one of its instances (mostly one of `preferred`, when the user
 * has such), or an instance of another page, or one deleted.
 */
export function pageAndInstance(
  w: World,
  s: StepSpec,
  preferred: (i: MInstance) => boolean = () => true,
): { pageId: number; pbId: number } {
  const has = (p: MPage) => p.owner === s.who && p.instances.some(preferred);
  const fallback = (p: MPage) => p.owner === s.who && p.instances.length > 0;
  const pageId = all(w.pages).some(has)
    ? pick(w, w.pages, w.gone.pages, s.who, s.a, has)
    : pick(w, w.pages, w.gone.pages, s.who, s.a, fallback);
  const page = w.pages[pageId];
  const r = s.c % 10;
  const elsewhere = all(w.pages).flatMap((p) => (p.id === pageId ? [] : p.instances.map((i) => i.id)));
  const candidates = page?.instances.filter(preferred).length ? page.instances.filter(preferred) : page?.instances;
  const pbId =
    r < 8
      ? (nth(candidates ?? [], Math.floor(s.c / 10))?.id ?? nth(elsewhere, s.c))
      : r < 9
        ? nth(elsewhere, s.c)
        : nth(w.gone.instances, s.c);
  return { pageId, pbId: pbId ?? 2_147_483_001 };
}

/** The instance's index on the page, or the status: another user's page, or an instance not on it, is a 404. */
export function instanceAt(m: World, who: number, pageId: number, pbId: number): number | { status: number } {
  const page = m.pages[pageId];
  if (!page || page.owner !== who) return { status: 404 };
  const index = page.instances.findIndex((i) => i.id === pbId);
  return index < 0 ? { status: 404 } : index;
}
