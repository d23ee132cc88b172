import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let root: TestUser;

beforeAll(async () => {
  t = await startApp();
  [user, root] = await Promise.all([newUser(t), admin(t)]);
});
afterAll(() => t.close());

const fields = [{ name: 'title', type: 'string' }];
const put = (id: number, body: unknown, ifMatch?: string, query?: Record<string, number>) =>
  t.call('PUT', `/api/v1/blocks/${id}`, {
    key: user.key,
    body,
    ...(query && { query }),
    ...(ifMatch !== undefined && { headers: { 'if-match': ifMatch } }),
  });
const read = (id: number) => t.call('GET', `/api/v1/blocks/${id}`, { key: user.key });

describe('a block answers with its edit version as a weak ETag', () => {
  it('on create, read, update, fork and deprecation', async () => {
    const created = await t.call('POST', '/api/v1/blocks', {
      key: user.key,
      body: { name: 'A', schema_content: fields },
    });
    expect(created.status).toBe(201);
    expect(created.body.edit_version).toBe(1);
    expect(created.headers.get('etag')).toBe('W/"1"');
    expect((await read(created.body.id)).headers.get('etag')).toBe('W/"1"');

    // A change of the name alone makes no revision, and still moves the edit version.
    const renamed = await put(created.body.id, { name: 'B' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.version_bump).toBe('none');
    expect(renamed.body.block.edit_version).toBe(2);
    expect(renamed.headers.get('etag')).toBe('W/"2"');
    expect((await read(created.body.id)).headers.get('etag')).toBe('W/"2"');

    const global = await t.call('POST', '/api/admin/blocks', {
      cookie: root.cookie,
      body: { name: 'G', template: '<p></p>' },
    });
    expect(global.headers.get('etag')).toBe('W/"1"');
    const fork = await t.call('POST', `/api/v1/blocks/${global.body.id}/fork`, { key: user.key, body: {} });
    expect(fork.status).toBe(201);
    expect(fork.headers.get('etag')).toBe(`W/"${fork.body.edit_version}"`);
    const deprecated = await t.call('PUT', `/api/admin/blocks/${global.body.id}/deprecation`, {
      cookie: root.cookie,
      body: { is_deprecated: true },
    });
    expect(deprecated.body.edit_version).toBe(2);
    expect(deprecated.headers.get('etag')).toBe('W/"2"');
  });
});

describe('PUT and DELETE /blocks/{id} with If-Match', () => {
  it('write over the version named, weak or strong, and refuse another with 412, writing nothing', async () => {
    const block = await createBlock(t, user, { name: 'Start', schema_content: fields });
    expect((await put(block.id, { name: 'One' }, 'W/"1"')).status).toBe(200);
    expect((await put(block.id, { name: 'Two' }, '"2"')).status).toBe(200);

    const stale = await put(block.id, { name: 'Lost', template: '<b>changed</b>' }, 'W/"2"');
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({
      error: 'version_conflict',
      message: expect.stringContaining('Block'),
      current_version: 3,
      errors: [{ path: 'If-Match', message: expect.any(String), code: 'conflict', expected: 'W/"3"' }],
    });
    expect(stale.headers.get('etag')).toBe('W/"3"');
    const after = await read(block.id);
    expect(after.body).toMatchObject({ name: 'Two', edit_version: 3, version: { major: 1, minor: 0 } });

    // A stale version is said before anything in the body is looked at.
    expect((await put(block.id, { schema_content: [{ name: 'x', type: 'no-such-type' }] }, 'W/"1"')).status).toBe(412);
  });

  it('take a list of tags (one current is enough), `*`, or no header as before', async () => {
    const block = await createBlock(t, user, { name: 'List', schema_content: fields });
    expect((await put(block.id, { name: 'a' }, 'W/"7", "1"')).status).toBe(200);
    expect((await put(block.id, { name: 'b' }, '*')).status).toBe(200);
    expect((await put(block.id, { name: 'c' })).status).toBe(200);
    // A well-formed tag that is none of our versions matches nothing.
    const foreign = await put(block.id, { name: 'd' }, '"abc"');
    expect(foreign.status).toBe(412);
    expect(foreign.body.current_version).toBe(4);
  });

  it('refuse a value that is not a list of entity tags with 400 at If-Match', async () => {
    const block = await createBlock(t, user, { name: 'Malformed', schema_content: fields });
    for (const value of ['1', 'W/1', '"1" "2"', '"1', 'W/"1",,x', ',']) {
      const r = await put(block.id, { name: 'never' }, value);
      expect(r.status, value).toBe(400);
      expect(r.body.errors, value).toEqual([expect.objectContaining({ path: 'If-Match', code: 'format' })]);
    }
    expect((await read(block.id)).body).toMatchObject({ name: 'Malformed', edit_version: 1 });
  });

  it('in a dry run: a stale version is the 412 the real call would answer; a current one writes nothing', async () => {
    const block = await createBlock(t, user, { name: 'Dry', schema_content: fields });
    expect((await put(block.id, { name: 'x' }, 'W/"5"', { dry_run: 1 })).status).toBe(412);
    const dry = await put(block.id, { name: 'x' }, 'W/"1"', { dry_run: 1 });
    expect(dry.status).toBe(200);
    expect(dry.body.block.edit_version).toBe(2);
    expect((await read(block.id)).body).toMatchObject({ name: 'Dry', edit_version: 1 });
  });

  it('DELETE: a stale version keeps the block (412); the current one deletes it', async () => {
    const block = await createBlock(t, user, { name: 'Doomed', schema_content: fields });
    await put(block.id, { name: 'Doomed too' });
    const stale = await t.call('DELETE', `/api/v1/blocks/${block.id}`, {
      key: user.key,
      headers: { 'if-match': 'W/"1"' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.current_version).toBe(2);
    expect((await read(block.id)).status).toBe(200);
    const current = await t.call('DELETE', `/api/v1/blocks/${block.id}`, {
      key: user.key,
      headers: { 'if-match': 'W/"2"' },
    });
    expect(current.status).toBe(204);
    expect((await read(block.id)).status).toBe(404);
  });

  it('on the administrators’ route of a global block, through the session', async () => {
    const global = await t.call('POST', '/api/admin/blocks', {
      cookie: root.cookie,
      body: { name: 'Shared', template: '<p></p>' },
    });
    const change = (ifMatch: string) =>
      t.call('PUT', `/api/admin/blocks/${global.body.id}`, {
        cookie: root.cookie,
        body: { template: `<p>${ifMatch}</p>` },
        headers: { 'if-match': ifMatch },
      });
    expect((await change('W/"1"')).status).toBe(200);
    const stale = await change('W/"1"');
    expect(stale.status).toBe(412);
    expect(stale.body.current_version).toBe(2);
  });
});

describe('two writers with the same If-Match', () => {
  it('exactly one succeeds, the others get 412, and the block holds the winner’s change', async () => {
    for (let round = 0; round < 4; round++) {
      const block = await createBlock(t, user, { name: `Race ${round}`, schema_content: fields });
      // Half rename (no revision), half change the template (a new revision): both paths of the update.
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          put(block.id, i % 2 ? { name: `writer ${i}` } : { template: `<p>writer ${i}</p>` }, 'W/"1"'),
        ),
      );
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses, `round ${round}`).toEqual([200, 412, 412, 412, 412, 412]);
      const winner = replies.findIndex((r) => r.status === 200);
      const now = (await read(block.id)).body;
      expect(now.edit_version).toBe(2);
      if (winner % 2) expect(now).toMatchObject({ name: `writer ${winner}`, version: { major: 1, minor: 0 } });
      else expect(now.current_revision.template_content).toBe(`<p>writer ${winner}</p>`);
      for (const loser of replies.filter((r) => r.status === 412)) expect(loser.body.current_version).toBe(2);
    }
  });

  it('without If-Match, all of them go through as before', async () => {
    const block = await createBlock(t, user, { name: 'No condition', schema_content: fields });
    const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => put(block.id, { name: `w${i}` })));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await read(block.id)).body.edit_version).toBe(5);
  });
});

describe('MCP update_block with expected_version', () => {
  // A tool's result: its one text block's JSON, and whether it is an error.
  const tool = async (args: Record<string, unknown>) => {
    const reply = await t.call('POST', '/api/v1/mcp', {
      key: user.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'update_block', arguments: args } },
    });
    const result = reply.body.result;
    return { isError: result.isError as boolean | undefined, body: JSON.parse(result.content[0].text) };
  };

  it('writes over the version named and refuses another in the MCP error shape, at expected_version', async () => {
    const block = await createBlock(t, user, { name: 'Agent', schema_content: fields });
    const ok = await tool({ id: block.id, name: 'Agent 2', expected_version: 1 });
    expect(ok.isError).toBeUndefined();
    expect(ok.body.block.edit_version).toBe(2);

    const stale = await tool({ id: block.id, name: 'Agent 3', expected_version: 1 });
    expect(stale.isError).toBe(true);
    expect(stale.body).toEqual({
      status: 412,
      error: 'version_conflict',
      message: expect.any(String),
      current_version: 2,
      errors: [{ path: 'expected_version', message: expect.any(String), code: 'conflict', expected: 2 }],
    });
    expect((await read(block.id)).body.name).toBe('Agent 2');

    const garbage = await tool({ id: block.id, name: 'Agent 4', expected_version: { v: 1 } });
    expect(garbage.body).toMatchObject({
      status: 400,
      errors: [expect.objectContaining({ path: 'expected_version' })],
    });
    expect((await tool({ id: block.id, name: 'Agent 5' })).isError).toBeUndefined();
  });

  it('lists expected_version in the tool’s input schema', async () => {
    const list = await t.call('POST', '/api/v1/mcp', {
      key: user.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const update = list.body.result.tools.find((tool: { name: string }) => tool.name === 'update_block');
    expect(update.inputSchema.properties.expected_version).toMatchObject({ type: 'integer', minimum: 1 });
  });
});

describe('the OpenAPI documents', () => {
  it('declare If-Match, the 412 and the ETag on the block routes of both contours', async () => {
    for (const [prefix, cookie] of [
      ['/api/v1', undefined],
      ['/api', user.cookie],
    ] as const) {
      const document = (await t.call('GET', `${prefix}/docs.json`, cookie ? { cookie } : {})).body;
      const operation = document.paths[`${prefix}/blocks/{id}`].put;
      expect(operation.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'if-match' }));
      expect(operation.responses['412'].content['application/json'].schema.anyOf).toContainEqual({
        $ref: '#/components/schemas/VersionConflict',
      });
      expect(operation.responses['200'].headers.ETag).toBeDefined();
      expect(document.paths[`${prefix}/blocks/{id}`].get.responses['200'].headers.ETag).toBeDefined();
      expect(document.paths[`${prefix}/blocks/{id}`].delete.responses['412']).toBeDefined();
    }
  });
});
