import { expectEqual, fail, ok, pick, viaOf, type Expect, type Planner } from '../step.js';
import { all, isAdmin, type World } from '../world.js';

type Owned = { id: number; owner: number; scope?: string };
type Readable = 'sites' | 'folders' | 'pages' | 'blocks' | 'collections';
const KINDS: Readable[] = ['sites', 'folders', 'pages', 'blocks', 'collections'];

/** What the model says of `GET /{kind}/{id}` by `who`: the status, and what a 200 must show. */
function readExpect(m: World, kind: Readable, who: number, id: number): Expect {
  switch (kind) {
    case 'sites':
    case 'folders': {
      const o = m[kind][id];
      return !o ? fail(404) : o.owner !== who ? fail(403) : ok(200);
    }
    case 'pages': {
      const p = m.pages[id];
      if (!p || p.owner !== who) return fail(404);
      return ok(200, undefined, (n, body) => {
        const page = n.pages[id]!;
        expectEqual(`page ${id}`, pageShape(body), {
          site_id: page.site,
          folder_id: page.folder,
          slug: page.slug,
          blocks: page.instances.map((i) => [i.id, i.block, `${i.major}.${i.minor}`]),
        });
      });
    }
    case 'blocks': {
      const b = m.blocks[id];
      if (!b) return fail(404);
      if (b.scope === 'user' && b.owner !== who) return fail(403);
      return ok(200, undefined, (n, body) => {
        const block = n.blocks[id]!;
        expectEqual(
          `block ${id}`,
          [body.scope, body.version, body.edit_version],
          [block.scope, { major: block.major, minor: block.minor }, block.edit],
        );
      });
    }
    case 'collections': {
      const c = m.collections[id];
      if (!c) return fail(404);
      if (c.scope === 'user' && c.owner !== who) return fail(403);
      return ok(200, undefined, (n, body) =>
        expectEqual(`collection ${id}`, body.block_ids, n.collections[id]!.blocks),
      );
    }
  }
}

const pageShape = (body: any) => ({
  site_id: body.site_id,
  folder_id: body.folder_id,
  slug: body.slug,
  blocks: (body.blocks as any[]).map((b) => [b.id, b.block.id, `${b.version.major}.${b.version.minor}`]),
});

/** Any user reads any object: their own, another's, one deleted, one that never was. */
export const readObject: Planner = (w, s) => {
  const kind = KINDS[s.b % KINDS.length]!;
  const id = pick(w, w[kind] as Record<number, Owned>, w.gone[kind], s.who, s.a);
  const tool = kind === 'pages' ? 'get_page' : kind === 'blocks' ? 'get_block' : undefined;
  return {
    call: {
      who: s.who,
      via: viaOf(s, tool !== undefined),
      method: 'GET',
      path: `/${kind}/${id}`,
      tool,
      pathArgs: { id },
      query: kind === 'pages' ? { with_blocks: 1 } : undefined,
    },
    dry: false,
    expect: (m) => readExpect(m, kind, s.who, id),
  };
};

/** What `who` must see listed: exactly their own, plus global blocks and collections (of this sequence, for blocks). */
function visible(m: World, kind: Readable, who: number): number[] {
  const objects: Owned[] = all(m[kind] as Record<number, Owned>);
  return objects
    .filter((o) => o.owner === who || o.scope === 'global')
    .map((o) => o.id)
    .sort((a, b) => a - b);
}

/**
 * A user's list of one kind, exactly. Blocks are asked by this sequence's
 * token and collections past the global ones of earlier sequences (visible
 * to everyone, and many).
 */
export const listObjects: Planner = (w, s) => {
  const kind = KINDS[s.b % KINDS.length]!;
  const tool = kind === 'pages' ? 'list_pages' : kind === 'sites' ? 'list_sites' : undefined;
  const query: Record<string, string | number> = { limit: 200 };
  if (kind === 'blocks') query.search = w.token;
  // Ordered by id: earlier sequences' global collections come first, this sequence's after them.
  if (kind === 'collections') query.offset = w.collectionsBefore;
  return {
    call: { who: s.who, via: viaOf(s, tool !== undefined), method: 'GET', path: `/${kind}`, tool, query },
    dry: false,
    expect: () =>
      ok(200, undefined, (n, body) => {
        const want = visible(n, kind, s.who);
        const got = (body.data as { id: number }[]).map((o) => o.id).sort((a, b) => a - b);
        expectEqual(`${kind} listed to user ${s.who}${isAdmin(s.who) ? ' (administrator)' : ''}`, got, want);
      }),
  };
};
