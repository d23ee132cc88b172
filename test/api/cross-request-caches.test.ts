/**
 * Every cache kept across requests (`CrossRequestCache`), met by two users in
 * turn: what one request of A leaves in it is never what B gets. A and B own
 * twin blocks (the same name and field, another type or template) and twin
 * pages (the same values), so that a cache keyed by anything less than what
 * decides its value (a revision, the inputs, the owner checked on each read)
 * would hand one the other's entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';
import { unwrapInstances } from '../support/instances.js';

let t: TestApp;
let a: TestUser;
let b: TestUser;
const of: Record<'a' | 'b', { site: number; typed: number; view: number; page: number }> = {} as never;

beforeAll(async () => {
  t = await startApp();
  a = await newUser(t);
  b = await newUser(t);
  for (const [name, user, type] of [
    ['a', a, 'string'],
    ['b', b, 'integer'],
  ] as const) {
    const site = (await newSite(t, user, `Site of ${name}`)).id;
    // The same name and field in both; the field's type differs.
    const typed = (
      await createBlock(t, user, { name: 'Twin', schema_content: [{ name: 'title', type, required: true }] })
    ).id;
    // The same name, field and values in both; the template differs.
    const view = (
      await createBlock(t, user, {
        name: 'Twin view',
        schema_content: [{ name: 'title', type: 'string' }],
        template: `<p>${name}:{{ title }}</p>`,
      })
    ).id;
    const page = (
      await createPage(t, user, {
        name: 'Twin page',
        site_id: site,
        blocks: [{ block_id: view, placeholder_values: { title: 'same' } }],
      })
    ).id;
    of[name] = { site, typed, view, page };
  }
});
afterAll(() => t?.close());

const pairs = [
  ['a', () => a, 'b'],
  ['b', () => b, 'a'],
] as const;

describe('caches kept across requests, met by two users in turn', () => {
  it("page reads: B never gets A's kept answer, with or without blocks", async () => {
    for (let round = 0; round < 3; round++) {
      for (const [mine, user, theirs] of pairs) {
        for (const query of [{ with_blocks: 1 }, {}] as Record<string, number>[]) {
          // Twice: the second answer is the kept one.
          for (let i = 0; i < 2; i++) {
            const own = await t.call('GET', `/api/v1/pages/${of[mine].page}`, { key: user().key, query });
            expect(own.status).toBe(200);
            expect(own.body.site_id).toBe(of[mine].site);
          }
          const other = await t.call('GET', `/api/v1/pages/${of[theirs].page}`, { key: user().key, query });
          expect(other.status).toBe(404);
        }
      }
    }
  });

  it("validators: each instance's values are judged by its own block's revision", async () => {
    for (let round = 0; round < 2; round++) {
      for (const [mine, user] of pairs) {
        const add = (title: unknown) =>
          t.call('POST', `/api/v1/pages/${of[mine].page}/blocks`, {
            key: user().key,
            body: { blocks: [{ block_id: of[mine].typed, placeholder_values: { title } }] },
          });
        const [valid, invalid] = mine === 'a' ? ['text', 7] : [7, 'text'];
        const added = await add(valid);
        expect(added.status, added.text).toBe(201);
        const refused = await add(invalid);
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'blocks[0].placeholder_values.title' })]);
        // Through POST /pages too (the whole page's instances are judged together there).
        const page = await t.call('POST', '/api/v1/pages', {
          key: user().key,
          body: {
            name: 'Typed',
            site_id: of[mine].site,
            blocks: [{ block_id: of[mine].typed, placeholder_values: { title: valid } }],
          },
        });
        expect(page.status).toBe(201);
      }
    }
  });

  it("placeholder schemas: each user's block answers its own contract, the other's is refused", async () => {
    for (let round = 0; round < 2; round++) {
      for (const [mine, user, theirs] of pairs) {
        const own = await t.call('GET', `/api/v1/blocks/${of[mine].typed}/placeholder-schema`, { key: user().key });
        expect(own.status).toBe(200);
        expect(own.body.schema.properties.title.type).toBe(mine === 'a' ? 'string' : 'integer');
        const other = await t.call('GET', `/api/v1/blocks/${of[theirs].typed}/placeholder-schema`, { key: user().key });
        expect(other.status).toBe(403);
      }
    }
  });

  it("rendered pages: the same values in another user's template never give the other's HTML", async () => {
    for (let round = 0; round < 3; round++) {
      for (const [mine, user, theirs] of pairs) {
        const own = await t.call('GET', `/api/v1/pages/${of[mine].page}/preview`, { key: user().key });
        expect(own.status).toBe(200);
        expect(own.text).toContain(`<p>${mine}:same</p>`);
        expect(own.text).not.toContain(`<p>${theirs}:same</p>`);
        const other = await t.call('GET', `/api/v1/pages/${of[theirs].page}/preview`, { key: user().key });
        expect(other.status).toBe(404);
      }
    }
  });

  it('kept preview documents: each change of title, value or marks gives its own document, the twin keeps its own', async () => {
    const saved = (user: TestUser, page: number) => t.call('GET', `/api/v1/pages/${page}/preview`, { key: user.key });
    // The editor's preview of values as typed, of the same instance (the same id): marked when asked.
    const draft = (user: TestUser, page: number, blocks: unknown[], marks = false) =>
      t.call('POST', `/api/v1/pages/${page}/preview`, {
        key: user.key,
        body: { blocks },
        query: { marks: marks ? 1 : 0 },
      });
    const rename = (user: TestUser, page: number, name: string) =>
      t.call('PUT', `/api/v1/pages/${page}`, { key: user.key, body: { name } });
    for (let round = 0; round < 3; round++) {
      for (const [mine, user, theirs] of pairs) {
        const page = of[mine].page;
        const read = await t.call('GET', `/api/v1/pages/${page}`, { key: user().key, query: { with_blocks: 1 } });
        const id = read.body.blocks[0].id as number;
        const expectDocument = (text: string, name: string, value: string, marked = false) => {
          expect(text).toContain(`<title>${name}</title>`);
          expect(unwrapInstances(text)).toContain(
            `${marked ? `<!--pb-block:${id}-->` : '<body>\n'}<p>${mine}:${value}</p>`,
          );
        };
        // Twice each: the second answer is the kept one.
        for (let again = 0; again < 2; again++) expectDocument((await saved(user(), page)).text, 'Twin page', 'same');
        expect((await rename(user(), page, `Renamed ${round}`)).status).toBe(200);
        for (let again = 0; again < 2; again++) {
          expectDocument((await saved(user(), page)).text, `Renamed ${round}`, 'same');
          const typed = [{ id, placeholder_values: { title: `typed ${round}` } }];
          expectDocument((await draft(user(), page, typed)).text, `Renamed ${round}`, `typed ${round}`);
          expectDocument((await draft(user(), page, typed, true)).text, `Renamed ${round}`, `typed ${round}`, true);
          expectDocument((await draft(user(), page, [{ id }], true)).text, `Renamed ${round}`, 'same', true);
        }
        expect((await rename(user(), page, 'Twin page')).status).toBe(200);
        expectDocument((await saved(user(), page)).text, 'Twin page', 'same');
        const twin = await saved(user() === a ? b : a, of[theirs].page);
        expect(twin.text).toContain(`<p>${theirs}:same</p>`);
        expect(twin.text).not.toContain(`${mine}:`);
        expect((await saved(user(), of[theirs].page)).status).toBe(404);
      }
    }
  });

  it('kept statements: the same reads for A and B in turn answer each their own rows, after a refused write too', async () => {
    for (let round = 0; round < 3; round++) {
      for (const [mine, user, theirs] of pairs) {
        const own = await t.call('GET', `/api/v1/sites/${of[mine].site}`, { key: user().key });
        expect(own.status).toBe(200);
        expect(own.body.name).toBe(`Site of ${mine}`);
        // A write that fails part way (a taken slug, in a dry run and for real), then a read and a
        // write of the same statements with the other user's ids.
        const slug = `taken-${round}-${mine}`;
        const body = { name: 'Slugged', site_id: of[mine].site, slug };
        expect((await t.call('POST', '/api/v1/pages', { key: user().key, body })).status).toBe(201);
        expect((await t.call('POST', '/api/v1/pages?dry_run=1', { key: user().key, body })).status).toBe(409);
        const into = () =>
          t.call('POST', '/api/v1/pages', { key: user().key, body: { name: 'Across', site_id: of[theirs].site } });
        expect((await into()).status).toBe(403);
        expect((await t.call('POST', '/api/v1/pages', { key: user().key, body })).status).toBe(409);
        expect((await into()).status).toBe(403);
        expect((await t.call('GET', `/api/v1/sites/${of[theirs].site}`, { key: user().key })).status).toBe(403);
        const listed = await t.call('GET', '/api/v1/pages', { key: user().key, query: { limit: 100 } });
        expect(listed.status).toBe(200);
        expect(listed.body.data.every((p: { site_id: number }) => p.site_id === of[mine].site)).toBe(true);
      }
    }
  });
});
