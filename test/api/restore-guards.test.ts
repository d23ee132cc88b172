/**
 * A restore is a page write like any other (issue 26, points 3 and 5): it
 * honours If-Match (412 `version_conflict` on a stale version, said before
 * anything else, and in a dry run) and the page's bounds as they stand today
 * (the JSON limit and the HTML bound may have been lowered since the version
 * was written): a 422 at the place in the version, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, storageOf, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let site: { id: number };
let plain: { id: number };
/** 1,000 times its value: 100 K characters for a value of 100. */
let repeat: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  plain = await createBlock(t, user, {
    name: 'Plain',
    template: '<p>{{ title }}</p>',
    schema_content: [
      { name: 'title', type: 'string' },
      { name: 'body', type: 'text' },
    ],
  });
  repeat = await createBlock(t, user, {
    name: 'Repeat',
    template: '{% for i in (1..1000) %}{{ s }}{% endfor %}',
    schema_content: [{ name: 's', type: 'string' }],
  });
});
afterAll(() => t?.close());

const instance = (title: string) => ({ block_id: plain.id, placeholder_values: { title } });
const call = (
  app: TestApp,
  method: string,
  path: string,
  options: { ifMatch?: string; body?: unknown; dry?: boolean; cookie?: boolean } = {},
) =>
  app.call(method, `${options.cookie ? '/api' : '/api/v1'}${path}`, {
    ...(options.cookie ? { cookie: user.cookie } : { key: user.key }),
    ...(options.body !== undefined && { body: options.body }),
    ...(options.dry && { query: { dry_run: 1 } }),
    ...(options.ifMatch !== undefined && { headers: { 'if-match': options.ifMatch } }),
  });
const read = async (app: TestApp, id: number) =>
  (await app.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: { with_blocks: 1 } })).body;

describe('restore with If-Match', () => {
  it('a stale version is 412 with the current version (dry run too), nothing changes; the current one restores', async () => {
    const page = await createPage(t, user, { name: 'R', site_id: site.id, blocks: [instance('one')] });
    const pb = page.blocks[0].id;
    for (const title of ['two', 'three'])
      expect(
        (await call(t, 'PUT', `/pages/${page.id}/blocks/${pb}`, { body: { placeholder_values: { title } } })).status,
      ).toBe(200);
    // The page is at 3; a writer that read version 2 wants version 1 back.
    for (const cookie of [false, true])
      for (const dry of [false, true]) {
        const r = await call(t, 'POST', `/pages/${page.id}/versions/1/restore`, { ifMatch: 'W/"2"', dry, cookie });
        expect(r.status, `cookie ${cookie} dry ${dry}`).toBe(412);
        expect(r.body).toMatchObject({ error: 'version_conflict', current_version: 3 });
        expect(r.body.errors).toEqual([expect.objectContaining({ path: 'If-Match', code: 'conflict' })]);
        expect(r.headers.get('etag')).toBe('W/"3"');
      }
    const unchanged = await read(t, page.id);
    expect(unchanged.version).toBe(3);
    expect(unchanged.blocks[0].placeholder_values.title).toBe('three');

    const dry = await call(t, 'POST', `/pages/${page.id}/versions/1/restore`, { ifMatch: 'W/"3"', dry: true });
    expect(dry.status).toBe(200);
    const restored = await call(t, 'POST', `/pages/${page.id}/versions/1/restore`, { ifMatch: '"3"' });
    expect(restored.status).toBe(200);
    expect(restored.headers.get('etag')).toBe('W/"4"');
    expect(restored.body.version).toBe(4);
    expect(restored.body.blocks[0].placeholder_values.title).toBe('one');
    // `*` and no header restore as before.
    expect((await call(t, 'POST', `/pages/${page.id}/versions/2/restore`, { ifMatch: '*' })).status).toBe(200);
    expect((await call(t, 'POST', `/pages/${page.id}/versions/3/restore`)).status).toBe(200);
    expect((await read(t, page.id)).version).toBe(6);
  });

  it('says the stale version before a version that cannot be restored (409)', async () => {
    const doomed = await createBlock(t, user, { name: 'Doomed', schema_content: [{ name: 'title', type: 'string' }] });
    const page = await createPage(t, user, {
      name: 'Gone',
      site_id: site.id,
      blocks: [{ block_id: doomed.id, placeholder_values: { title: 'x' } }],
    });
    await call(t, 'PUT', `/pages/${page.id}`, { body: { blocks: [instance('y')] } });
    expect((await call(t, 'DELETE', `/blocks/${doomed.id}`)).status).toBe(204);
    const stale = await call(t, 'POST', `/pages/${page.id}/versions/1/restore`, { ifMatch: 'W/"1"' });
    expect(stale.status).toBe(412);
    const current = await call(t, 'POST', `/pages/${page.id}/versions/1/restore`, { ifMatch: 'W/"2"' });
    expect(current.status).toBe(409);
    expect(current.body.errors).toEqual([expect.objectContaining({ path: 'blocks[0]' })]);
  });

  it('of two restores and a write with one If-Match, exactly one goes through', async () => {
    for (let round = 0; round < 3; round++) {
      const page = await createPage(t, user, { name: `Race ${round}`, site_id: site.id, blocks: [instance('a')] });
      const pb = page.blocks[0].id;
      await call(t, 'PUT', `/pages/${page.id}/blocks/${pb}`, { body: { placeholder_values: { title: 'b' } } });
      const replies = await Promise.all([
        call(t, 'POST', `/pages/${page.id}/versions/1/restore`, { ifMatch: 'W/"2"' }),
        call(t, 'POST', `/pages/${page.id}/versions/1/restore`, { ifMatch: 'W/"2"' }),
        call(t, 'PUT', `/pages/${page.id}/blocks/${pb}`, {
          ifMatch: 'W/"2"',
          body: { placeholder_values: { title: 'c' } },
        }),
      ]);
      const statuses = replies.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 200),
        `round ${round}: ${statuses.join()}`,
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 412),
        `round ${round}: ${statuses.join()}`,
      ).toHaveLength(2);
      expect((await read(t, page.id)).version).toBe(3);
    }
  });

  it('MCP restore_page_version takes expected_version', async () => {
    const page = await createPage(t, user, { name: 'Agent', site_id: site.id, blocks: [instance('a')] });
    await call(t, 'PUT', `/pages/${page.id}`, { body: { name: 'Agent 2' } });
    const tool = async (args: Record<string, unknown>) => {
      const reply = await t.call('POST', '/api/v1/mcp', {
        key: user.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'restore_page_version', arguments: args },
        },
      });
      const result = reply.body.result;
      return { isError: result.isError as boolean | undefined, body: JSON.parse(result.content[0].text) };
    };
    const stale = await tool({ id: page.id, number: 1, expected_version: 1 });
    expect(stale.isError).toBe(true);
    expect(stale.body).toMatchObject({
      status: 412,
      error: 'version_conflict',
      current_version: 2,
      errors: [{ path: 'expected_version', code: 'conflict', expected: 2 }],
    });
    const ok = await tool({ id: page.id, number: 1, expected_version: 2 });
    expect(ok.isError).toBeUndefined();
    expect(ok.body).toMatchObject({ name: 'Agent', version: 3 });
  });

  it('is documented: If-Match, the 412, the 422 and the ETag', async () => {
    const document = (await t.call('GET', '/api/v1/docs.json')).body;
    const restore = document.paths['/api/v1/pages/{id}/versions/{number}/restore'].post;
    expect(restore.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'if-match' }));
    expect(restore.responses['412']).toBeDefined();
    expect(restore.responses['422']).toBeDefined();
    expect(restore.responses['200'].headers.ETag).toBeDefined();
  });
});

describe("restore within today's bounds", () => {
  it('a version over a lowered JSON limit or HTML bound is a 422 at its place in the version; nothing changes', async () => {
    // Written under the defaults (1 MiB of JSON, 2 Mi characters of HTML)...
    const big = { block_id: plain.id, placeholder_values: { title: 't', body: 'x'.repeat(20 * 1024) } };
    const wide = { block_id: repeat.id, placeholder_values: { s: 'y'.repeat(100) } };
    const json = await createPage(t, user, { name: 'Json', site_id: site.id, blocks: [instance('a'), big] });
    const html = await createPage(t, user, { name: 'Html', site_id: site.id, blocks: [instance('a'), wide] });
    for (const page of [json, html])
      expect((await call(t, 'PUT', `/pages/${page.id}`, { body: { blocks: [instance('small')] } })).status).toBe(200);

    // ...restored by a server whose JSON limit is 16 KiB and whose HTML bound is 64 Ki characters.
    await t.stop();
    const lowered = await startApp({
      storage: storageOf(t),
      env: { PAGE_JSON_LIMIT_KB: '16' },
      overrides: { renderPool: { renderer: { outputLimit: 64 * 1024 } } },
    });
    try {
      for (const dry of [true, false]) {
        const overJson = await call(lowered, 'POST', `/pages/${json.id}/versions/1/restore`, { dry });
        expect(overJson.status, JSON.stringify(overJson.body)).toBe(422);
        expect(overJson.body.errors).toEqual([
          expect.objectContaining({ path: 'blocks[1].placeholder_values.body', code: 'too_large' }),
        ]);
        expect(overJson.body.errors[0].expected.limit_bytes).toBe(16 * 1024);
        const overHtml = await call(lowered, 'POST', `/pages/${html.id}/versions/1/restore`, { dry, ifMatch: 'W/"2"' });
        expect(overHtml.status, JSON.stringify(overHtml.body)).toBe(422);
        expect(overHtml.body.errors).toEqual([expect.objectContaining({ path: 'blocks[1]', code: 'too_large' })]);
        expect(overHtml.body.error).toContain(`over the limit of ${64 * 1024}`);
      }
      for (const page of [json, html]) {
        const after = await read(lowered, page.id);
        expect(after.version).toBe(2);
        expect(after.blocks.map((b: any) => b.placeholder_values.title)).toEqual(['small']);
        // A version within the bounds restores.
        expect((await call(lowered, 'POST', `/pages/${page.id}/versions/2/restore`)).status).toBe(200);
      }
    } finally {
      await lowered.stop();
    }
  });
});
