import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';

/*
 * Random sequences of page edits interleaved with block revisions (minor and
 * major), upgrades, replaces, block deletions and restores. After each
 * sequence, every version the page went through:
 * - reads back as the page read when that version was current;
 * - previews to the bytes the page's preview had then, or, when one of its
 *   blocks was deleted since, is refused with 409 at that block's place;
 * - restores (dry run) to that content and those pins, or is refused with 409
 *   at exactly the places of its deleted blocks.
 * Runs on the database the run is configured for (SQLite, or PostgreSQL with DATABASE_URL).
 */

const RUNS = Number(process.env.HISTORY_RUNS ?? 6);

let t: TestApp;
let user: TestUser;
let site: { id: number };
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown, query?: Record<string, number>) =>
  t.call(method, path, { key: user.key, ...(body !== undefined && { body }), ...(query && { query }) });

const FULL = [
  { name: 'title', type: 'string', required: true, max_length: 80 },
  { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'caption', type: 'string' }] } },
];
const SHORT = FULL.slice(0, 1);

type Op =
  | { kind: 'values'; at: number; title: string; caption: string | null }
  | { kind: 'add'; at: number; which: 0 | 1; title: string }
  | { kind: 'remove'; at: number }
  | { kind: 'move'; at: number; to: number }
  | { kind: 'meta'; name: string }
  | { kind: 'minor'; which: 0 | 1; tag: string }
  | { kind: 'major'; which: 0 | 1 }
  | { kind: 'upgradeAll' }
  | { kind: 'replace'; at: number; which: 0 | 1; title: string }
  | { kind: 'deleteBlock'; which: 0 | 1 }
  | { kind: 'restore'; back: number };

const word = fc.stringMatching(/^[a-z]{1,6}$/);
const which = fc.constantFrom(0 as const, 1 as const);
const place = fc.nat({ max: 9 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('values' as const), at: place, title: word, caption: fc.option(word) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), at: place, which, title: word }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: place }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), at: place, to: place }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('meta' as const), name: word }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('minor' as const), which, tag: word }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('major' as const), which }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('upgradeAll' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: place, which, title: word }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteBlock' as const), which }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const), back: fc.nat({ max: 12 }) }) },
);

/** What a version must give back: its content by place (ids aside: a restore gives removed instances new ids). */
const content = (page: any) => ({
  name: page.name,
  slug: page.slug,
  meta_title: page.meta_title,
  blocks: page.blocks.map((b: any) => ({
    block_id: b.block.id,
    placeholder_values: b.placeholder_values,
    bindings: b.bindings,
    version: b.version,
    parent: b.parent_page_block_id === null ? null : page.blocks.findIndex((p: any) => p.id === b.parent_page_block_id),
  })),
});
/** As read: ids included. */
const exact = (page: any) => ({ ...content(page), ids: page.blocks.map((b: any) => b.id) });

async function runSequence(ops: Op[]) {
  const tag = Math.random().toString(36).slice(2, 8);
  const blocks: Array<{ id: number; deleted: boolean }> = [];
  for (const i of [0, 1]) {
    const r = await call('POST', '/api/v1/blocks', {
      name: `P${i} ${tag}`,
      template: `<div class="b${i}"><h2>{{ title }}</h2>{% for it in items %}<i>{{ it.caption }}</i>{% endfor %}</div>`,
      css: `.b${i}{margin:${i}px}`,
      schema_content: FULL,
    });
    expect(r.status).toBe(201);
    blocks.push({ id: r.body.id, deleted: false });
  }
  const created = await call('POST', '/api/v1/pages', {
    name: `Page ${tag}`,
    site_id: site.id,
    blocks: [
      { block_id: blocks[0]!.id, placeholder_values: { title: 'one', items: [{ caption: 'c' }] } },
      { block_id: blocks[1]!.id, placeholder_values: { title: 'two' } },
    ],
  });
  expect(created.status).toBe(201);
  const pageId: number = created.body.id;
  /** Each version as the page read and previewed while it was current. */
  const seen = new Map<number, { page: any; preview: string }>();
  const snapshot = async () => {
    const page = (await call('GET', `/api/v1/pages/${pageId}`, undefined, { with_blocks: 1 })).body;
    const preview = await call('GET', `/api/v1/pages/${pageId}/preview`);
    expect(preview.status, preview.text).toBe(200);
    seen.set(page.version, { page, preview: preview.text });
    return page;
  };
  let page = await snapshot();
  const at = (n: number) => page.blocks[n % page.blocks.length];

  for (const o of ops) {
    const live = blocks['which' in o ? o.which : 0]!;
    let r: { status: number; body: any; text: string } | undefined;
    switch (o.kind) {
      case 'values': {
        if (!page.blocks.length) break;
        // Every revision an instance can pin has items (a major drops them and brings them back: see below).
        r = await call('PUT', `/api/v1/pages/${pageId}/blocks/${at(o.at).id}`, {
          placeholder_values: { title: o.title, ...(o.caption ? { items: [{ caption: o.caption }] } : {}) },
        });
        break;
      }
      case 'add':
        if (live.deleted) break;
        r = await call('POST', `/api/v1/pages/${pageId}/blocks`, {
          position: o.at % (page.blocks.length + 1),
          blocks: [{ block_id: live.id, placeholder_values: { title: o.title } }],
        });
        break;
      case 'remove':
        if (page.blocks.length) r = await call('DELETE', `/api/v1/pages/${pageId}/blocks/${at(o.at).id}`);
        break;
      case 'move':
        if (page.blocks.length)
          r = await call('PUT', `/api/v1/pages/${pageId}/blocks/${at(o.at).id}/move`, {
            position: o.to % page.blocks.length,
          });
        break;
      case 'meta':
        r = await call('PUT', `/api/v1/pages/${pageId}`, { name: `Page ${o.name}`, meta_title: o.name });
        break;
      case 'minor':
        if (!live.deleted)
          await call('PUT', `/api/v1/blocks/${live.id}`, {
            template: `<div class="m-${o.tag}"><h2>{{ title }}</h2></div>`,
          });
        break;
      case 'major':
        // A major (items dropped), then a minor (items back): the block's current revision always has items.
        if (!live.deleted) {
          await call('PUT', `/api/v1/blocks/${live.id}`, { schema_content: SHORT });
          await call('PUT', `/api/v1/blocks/${live.id}`, { schema_content: FULL, template: '<p>{{ title }}!</p>' });
        }
        break;
      case 'upgradeAll':
        r = await call('POST', `/api/v1/pages/${pageId}/blocks/upgrade-all`);
        break;
      case 'replace':
        if (page.blocks.length && !live.deleted)
          r = await call('PUT', `/api/v1/pages/${pageId}/blocks/${at(o.at).id}/replace`, {
            block_id: live.id,
            placeholder_values: { title: o.title },
          });
        break;
      case 'deleteBlock': {
        if (live.deleted || page.blocks.some((b: any) => b.block.id === live.id)) break;
        const d = await call('DELETE', `/api/v1/blocks/${live.id}`);
        if (d.status === 204) live.deleted = true;
        break;
      }
      case 'restore': {
        const number = Math.max(1, page.version - 1 - o.back);
        r = await call('POST', `/api/v1/pages/${pageId}/versions/${number}/restore`);
        const then = seen.get(number)!.page;
        if (r.status === 200) expect(content(r.body)).toEqual(content(then));
        else {
          expect(r.status, r.text).toBe(409);
          const gone = then.blocks.flatMap((b: any, i: number) =>
            blocks.some((x) => x.id === b.block.id && x.deleted) ? [`blocks[${i}]`] : [],
          );
          expect(r.body.errors.map((e: any) => e.path)).toEqual(gone);
        }
        break;
      }
    }
    if (r && r.status < 300) page = await snapshot();
    else if (r) expect(r.status, `${JSON.stringify(o)}: ${r.text}`).toBeLessThan(500);
  }

  for (const [number, then] of seen) {
    const read = await call('GET', `/api/v1/pages/${pageId}/versions/${number}`);
    expect(read.status).toBe(200);
    expect(exact(read.body), `version ${number}`).toEqual(exact(then.page));
    const gone = then.page.blocks.flatMap((b: any, i: number) =>
      blocks.some((x) => x.id === b.block.id && x.deleted) ? [`blocks[${i}]`] : [],
    );
    const preview = await call('GET', `/api/v1/pages/${pageId}/versions/${number}/preview`);
    const restore = await call('POST', `/api/v1/pages/${pageId}/versions/${number}/restore`, undefined, { dry_run: 1 });
    if (gone.length) {
      expect(preview.status).toBe(409);
      expect(preview.body.errors.map((e: any) => e.path)).toEqual(gone);
      expect(restore.status).toBe(409);
      expect(restore.body.errors.map((e: any) => e.path)).toEqual(gone);
    } else {
      expect(preview.status).toBe(200);
      expect(preview.text, `preview of version ${number}`).toBe(then.preview);
      expect(restore.status, restore.text).toBe(200);
      expect(content(restore.body)).toEqual(content(then.page));
    }
  }
  const versions = await call('GET', `/api/v1/pages/${pageId}/versions`, undefined, { limit: 200 });
  expect(versions.body.data.map((v: any) => v.number)).toEqual([...seen.keys()].sort((a, b) => b - a));
}

describe('page history, property', () => {
  it(`every version reads, previews and restores as it was (${RUNS} random sequences)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 8, maxLength: 30 }), async (ops) => runSequence(ops)),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
  }, 600_000);
});
