import { expectEqual, fail, ok, pick, viaOf, type Expect, type Planner } from '../step.js';
import {
  blockInUse,
  isAdmin,
  otherField,
  removeBlock,
  schemaOf,
  templateOf,
  usableBlock,
  type MBlock,
  type World,
} from '../world.js';

/** Reading a block: own or global; another user's private block is a 403. */
const readable = (m: World, who: number, id: number): number => {
  const b = m.blocks[id];
  return !b ? 404 : b.scope === 'global' || b.owner === who ? 0 : 403;
};

/**
 * A new block; one in five is asked for on the administrators' route
 * (`/api/admin/blocks`, global), where anyone else gets a 403.
 */
export const createBlock: Planner = (w, s) => {
  const global = s.b % 5 === 0;
  const body: Record<string, unknown> = {
    name: `${w.token} block`,
    template: templateOf('title', 1, 0),
    schema_content: schemaOf('title'),
  };
  if (s.fault === 1) delete body.name;
  if (s.fault === 2) body.schema_content = [{ name: 'x', type: 'no-such-type' }];
  return {
    call: global
      ? { who: s.who, via: 'cookie', admin: true, method: 'POST', path: '/admin/blocks', body }
      : { who: s.who, via: viaOf(s, false), method: 'POST', path: '/blocks', body },
    dry: false,
    expect: () => {
      if (global && !isAdmin(s.who)) return fail(403);
      if (s.fault === 1) return fail(400);
      if (s.fault === 2) return fail(422);
      return ok(201, (n, answer) => {
        n.blocks[answer.id] = {
          id: answer.id,
          owner: s.who,
          scope: global ? 'global' : 'user',
          major: 1,
          minor: 0,
          field: 'title',
          edit: 1,
        };
      });
    },
  };
};

/**
 * The version a write names in `If-Match`, from `n`: mostly none (the old
 * behaviour), sometimes the one the model holds (it goes through), sometimes
 * an older one (412, and nothing changes).
 */
export const ifMatchOf = (edit: number | undefined, n: number): number | undefined => {
  const r = n % 6;
  if (edit === undefined || r < 3) return undefined;
  if (r < 5) return edit;
  return edit > 1 && n % 2 ? edit - 1 : edit + 1;
};

/**
 * A change with no bump (the name), a minor one (the template) or a major one
 * (the field renamed). Administrators change global blocks on their own route.
 */
export const updateBlock: Planner = (w, s) => {
  const id = pick(w, w.blocks, w.gone.blocks, s.who, s.a);
  const known = w.blocks[id];
  const field = known?.field ?? 'title';
  const [major, minor] = [known?.major ?? 1, known?.minor ?? 0];
  const variant = s.b % 3;
  const body: Record<string, unknown> =
    variant === 0
      ? { name: `${w.token} block v${s.d}` }
      : variant === 1
        ? { template: templateOf(field, major, minor + 1) }
        : { template: templateOf(otherField(field), major + 1, 0), schema_content: schemaOf(otherField(field)) };
  if (s.fault) body.schema_content = [{ name: 'x', type: 'no-such-type' }];
  const adminRoute = isAdmin(s.who) && s.d % 2 === 0;
  const dry = s.dry && !adminRoute;
  const ifMatch = ifMatchOf(known?.edit, s.c);
  return {
    call: adminRoute
      ? { who: s.who, via: 'cookie', admin: true, method: 'PUT', path: `/admin/blocks/${id}`, body, ifMatch }
      : {
          who: s.who,
          via: viaOf(s, true),
          method: 'PUT',
          path: `/blocks/${id}`,
          tool: 'update_block',
          pathArgs: { id },
          query: dry ? { dry_run: 1 } : undefined,
          body,
          ifMatch,
        },
    dry,
    expect: (m): Expect => {
      const access = readable(m, s.who, id);
      if (access) return fail(access);
      const block = m.blocks[id]!;
      if (adminRoute ? block.scope !== 'global' : block.scope === 'global') return fail(adminRoute ? 422 : 403);
      // A stale version is said before the body is looked at, and changes nothing.
      if (ifMatch !== undefined && ifMatch !== block.edit) return fail(412);
      if (s.fault) return fail(422);
      const bump = bumpOf(block, body);
      return ok(
        200,
        (n) => {
          const b = n.blocks[id]!;
          if (bump === 'major') Object.assign(b, { major: b.major + 1, minor: 0, field: otherField(b.field) });
          if (bump === 'minor') b.minor++;
          if (body.template !== undefined) b.template = body.template as string;
          b.edit++;
        },
        (n, answer) => {
          if (answer.version_bump !== bump)
            throw new Error(`PUT block ${id}: version_bump ${answer.version_bump}, the model ${bump}`);
          expectEqual(`PUT block ${id}: edit_version`, answer.block.edit_version, n.blocks[id]!.edit + 1);
        },
      );
    },
  };
};

const currentTemplate = (block: MBlock) => block.template ?? templateOf(block.field, block.major, block.minor);

/** The step the block's current revision takes from `body` (fields renamed: major; template changed: minor). */
function bumpOf(block: MBlock, body: Record<string, unknown>): 'major' | 'minor' | 'none' {
  const schema = body.schema_content as { name: string }[] | undefined;
  if (schema && schema[0]!.name !== block.field) return 'major';
  if (body.template !== undefined && body.template !== currentTemplate(block)) return 'minor';
  return 'none';
}

export const deleteBlock: Planner = (w, s) => {
  const id = pick(w, w.blocks, w.gone.blocks, s.who, s.a);
  const ifMatch = ifMatchOf(w.blocks[id]?.edit, s.c);
  return {
    call: { who: s.who, via: viaOf(s, false), method: 'DELETE', path: `/blocks/${id}`, ifMatch },
    dry: false,
    expect: (m) => {
      const access = readable(m, s.who, id);
      if (access) return fail(access);
      const block = m.blocks[id]!;
      if (block.scope === 'global' && !isAdmin(s.who)) return fail(403);
      if (ifMatch !== undefined && ifMatch !== block.edit) return fail(412);
      if (blockInUse(m, id)) return fail(409);
      return ok(204, (n) => removeBlock(n, id));
    },
  };
};

/** A private copy of a global block, at 1.0 with the source's current content. */
export const forkBlock: Planner = (w, s) => {
  const id = pick(w, w.blocks, w.gone.blocks, s.who, s.a, (b) => b.scope === 'global');
  return {
    call: { who: s.who, via: viaOf(s, false), method: 'POST', path: `/blocks/${id}/fork`, body: {} },
    dry: false,
    expect: (m) => {
      const access = readable(m, s.who, id);
      if (access) return fail(access);
      const source = m.blocks[id]!;
      if (source.scope !== 'global') return fail(400);
      return ok(201, (n, answer) => {
        n.blocks[answer.id] = {
          id: answer.id,
          owner: s.who,
          scope: 'user',
          major: 1,
          minor: 0,
          field: source.field,
          edit: 1,
          template: currentTemplate(source),
        };
      });
    },
  };
};

export const createCollection: Planner = (w, s) => {
  const global = s.b % 4 === 0;
  const body = s.fault ? { name: '' } : { name: `${w.token} collection` };
  return {
    call: global
      ? { who: s.who, via: 'cookie', admin: true, method: 'POST', path: '/admin/collections', body }
      : { who: s.who, via: viaOf(s, false), method: 'POST', path: '/collections', body },
    dry: false,
    expect: () => {
      if (global && !isAdmin(s.who)) return fail(403);
      if (s.fault) return fail(400);
      return ok(201, (n, answer) => {
        n.collections[answer.id] = { id: answer.id, owner: s.who, scope: global ? 'global' : 'user', blocks: [] };
      });
    },
  };
};

/** Another user's personal collection is a 403; a global one, to anyone but an administrator, too. */
const writableCollection = (m: World, who: number, id: number): number => {
  const c = m.collections[id];
  if (!c) return 404;
  if (c.scope === 'user' && c.owner !== who) return 403;
  if (c.scope === 'global' && !isAdmin(who)) return 403;
  return 0;
};

export const addToCollection: Planner = (w, s) => {
  const id = pick(w, w.collections, w.gone.collections, s.who, s.a);
  const usable = (b: MBlock) => b.owner === s.who || b.scope === 'global';
  const blocks = [
    pick(w, w.blocks, w.gone.blocks, s.who, s.d, usable),
    ...(s.b % 2 ? [pick(w, w.blocks, [], s.who, s.b, usable)] : []),
  ];
  return {
    call: {
      who: s.who,
      via: viaOf(s, false),
      method: 'POST',
      path: `/collections/${id}/blocks`,
      body: s.fault ? { block_ids: [] } : { block_ids: blocks },
    },
    dry: false,
    expect: (m) => {
      if (s.fault) return fail(400);
      const access = writableCollection(m, s.who, id);
      if (access) return fail(access);
      const collection = m.collections[id]!;
      const allowed = (b: number) =>
        collection.scope === 'global' ? m.blocks[b]?.scope === 'global' : usableBlock(m, s.who, b);
      if (!blocks.every(allowed)) return fail(422);
      return ok(200, (n) => {
        const c = n.collections[id]!;
        for (const b of blocks) if (!c.blocks.includes(b)) c.blocks.push(b);
      });
    },
  };
};

export const deleteCollection: Planner = (w, s) => {
  const id = pick(w, w.collections, w.gone.collections, s.who, s.a);
  return {
    call: { who: s.who, via: viaOf(s, false), method: 'DELETE', path: `/collections/${id}` },
    dry: false,
    expect: (m) => {
      const access = writableCollection(m, s.who, id);
      if (access) return fail(access);
      return ok(204, (n) => {
        delete n.collections[id];
        n.gone.collections.push(id);
      });
    },
  };
};
