/**
 * Webhooks through MCP, with the SDK's client against a real receiver on
 * loopback, on the configured database: an agent subscribes a URL (the secret
 * shown once), sends a test that the `standardwebhooks` package verifies,
 * reads the delivery log, redelivers, rotates the secret, changes the URL and
 * events, disables and enables, and deletes. Every refusal is the REST
 * route's own: the same status, and the same errors at the same paths.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { checkedFetch } from '../support/documented-responses.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import type { ToolAnswer } from '../support/mcp-answer.js';
import { startReceiver, until, type Received, type Receiver } from '../support/webhook-receiver.js';

const JOBS = {
  JOB_RETRY_LIMIT: '1',
  JOB_RETRY_DELAY_SECONDS: '1',
  JOB_POLL_SECONDS: '0.5',
  WEBHOOK_TIMEOUT_SECONDS: '3',
};
let t: TestApp;
let receiver: Receiver;
let user: TestUser;
let other: TestUser;
let siteId: number;
let client: Client;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startApp({ env: JOBS });
  [user, other] = [await newUser(t), await newUser(t)];
  siteId = (await newSite(t, user)).id;
  client = new Client({ name: 'webhooks-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${user.key}` } },
      fetch: checkedFetch(t.url),
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await t?.close();
  await receiver?.close();
});

/** A tool's answer: its status (200 when it succeeded, else the one it says) and its JSON. */
async function tool(name: string, args: Record<string, unknown>) {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  expect(answer.content.map((c) => c.type)).toEqual(['text']);
  const body = JSON.parse(answer.content[0]!.text!) as Record<string, any>;
  if (answer.isError !== true) return { status: 200, body };
  const { status, ...rest } = body;
  return { status: status as number, body: rest };
}

const verified = (secret: string, received: Received) =>
  new Verifier(secret).verify(received.body, received.headers as Record<string, string>) as {
    type: string;
    data: Record<string, unknown>;
  };
const deliveries = async (id: number) => (await tool('list_webhook_deliveries', { id })).body.data as any[];
const newPage = (name: string) =>
  t.call('POST', '/api/v1/pages', { key: user.key, body: { name, site_id: siteId } }).then((r) => r.body);
const quiet = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe('webhooks over MCP', { timeout: 60_000 }, () => {
  it('subscribes a URL, tests it, reads the log, redelivers and rotates the secret', async () => {
    const created = await tool('create_webhook', {
      url: receiver.url('/mcp'),
      events: ['page.created'],
      description: 'From an agent',
    });
    expect(created.status).toBe(200);
    const hook = created.body;
    expect(hook).toMatchObject({ url: receiver.url('/mcp'), events: ['page.created'], enabled: true });
    expect(hook.secret).toMatch(/^whsec_/);
    const read = await tool('get_webhook', { id: hook.id });
    expect(read.body).toMatchObject({ id: hook.id, description: 'From an agent' });
    expect(JSON.stringify(read.body)).not.toContain(hook.secret.slice(6));
    const listed = await tool('list_webhooks', {});
    expect(listed.body.data.map((h: { id: number }) => h.id)).toEqual([hook.id]);
    expect(JSON.stringify(listed.body)).not.toContain(hook.secret.slice(6));

    const test = await tool('test_webhook', { id: hook.id });
    expect(test.body).toMatchObject({ event: 'webhook.test', state: 'pending' });
    const [first] = await until(
      async () => receiver.at('/mcp'),
      (got) => got.length === 1,
    );
    expect(verified(hook.secret, first!)).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
    expect(first!.headers['webhook-id']).toBe(test.body.id);
    const log = await until(
      () => deliveries(hook.id),
      (data) => data[0]?.state === 'delivered',
    );
    expect(log[0].attempt_log).toMatchObject([{ attempt: 1, response_status: 200, error: null }]);

    const again = await tool('redeliver_webhook_delivery', { id: hook.id, did: test.body.id });
    expect(again.body).toMatchObject({ id: test.body.id, state: 'pending' });
    const [, second] = await until(
      async () => receiver.at('/mcp'),
      (got) => got.length === 2,
    );
    expect(second!.headers['webhook-id']).toBe(test.body.id);

    const rotated = await tool('rotate_webhook_secret', { id: hook.id });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    await tool('test_webhook', { id: hook.id });
    const [, , third] = await until(
      async () => receiver.at('/mcp'),
      (got) => got.length === 3,
    );
    expect(verified(rotated.body.secret, third!).type).toBe('webhook.test');
    expect(() => verified(hook.secret, third!)).toThrow();
    expect((await tool('delete_webhook', { id: hook.id })).body).toEqual({ done: true });
  });

  it('changes the URL and events, disables and enables, and deletes', async () => {
    const hook = (await tool('create_webhook', { url: receiver.url('/before'), events: ['page.deleted'] })).body;
    const off = await tool('update_webhook', { id: hook.id, enabled: false });
    expect(off.body).toMatchObject({ enabled: false, events: ['page.deleted'] });
    const moved = await tool('update_webhook', {
      id: hook.id,
      url: receiver.url('/after'),
      events: ['page.created', 'page.deleted'],
    });
    expect(moved.body).toMatchObject({ url: receiver.url('/after'), enabled: false });
    // Disabled: a new page is heard by nobody.
    const unheard = await newPage('Unheard');
    await quiet();
    expect(receiver.at('/after')).toEqual([]);

    expect((await tool('update_webhook', { id: hook.id, enabled: true })).body.enabled).toBe(true);
    const heard = await newPage('Heard');
    const [event] = await until(
      async () => receiver.at('/after'),
      (got) => got.length === 1,
    );
    expect(verified(hook.secret, event!)).toMatchObject({ type: 'page.created', data: { page_id: heard.id } });

    expect((await tool('delete_webhook', { id: hook.id })).body).toEqual({ done: true });
    expect((await tool('get_webhook', { id: hook.id })).status).toBe(404);
    await t.call('DELETE', `/api/v1/pages/${unheard.id}`, { key: user.key });
    await quiet();
    expect(receiver.at('/after')).toHaveLength(1);
    expect(receiver.at('/before')).toEqual([]);
  });

  it('refuses as the REST routes do: the same status, the same errors at the same paths', async () => {
    const hook = (await tool('create_webhook', { url: receiver.url('/refusals'), events: ['page.created'] })).body;
    const theirs = await t.call('POST', '/api/v1/webhooks', {
      key: other.key,
      body: { url: receiver.url('/theirs'), events: ['page.created'] },
    });
    const cases: [string, Record<string, unknown>, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['create_webhook', { url: 'ftp://example.com/x', events: ['page.created'] }, 'POST', '/webhooks'],
      ['create_webhook', { url: receiver.url('/x'), events: [] }, 'POST', '/webhooks'],
      ['create_webhook', { url: receiver.url('/x'), events: ['page.exploded'] }, 'POST', '/webhooks'],
      ['create_webhook', { events: ['page.created'] }, 'POST', '/webhooks'],
      ['update_webhook', { id: hook.id, url: 'not a url' }, 'PUT', `/webhooks/${hook.id}`],
      ['update_webhook', { id: hook.id, enabled: 'yes' }, 'PUT', `/webhooks/${hook.id}`],
      ['update_webhook', { id: theirs.body.id, enabled: false }, 'PUT', `/webhooks/${theirs.body.id}`],
      ['delete_webhook', { id: theirs.body.id }, 'DELETE', `/webhooks/${theirs.body.id}`],
      ['test_webhook', { id: theirs.body.id }, 'POST', `/webhooks/${theirs.body.id}/test`],
      ['get_webhook', { id: 'x' }, 'GET', '/webhooks/x'],
      [
        'redeliver_webhook_delivery',
        { id: hook.id, did: 'msg_none' },
        'POST',
        `/webhooks/${hook.id}/deliveries/msg_none/redeliver`,
      ],
    ];
    for (const [name, args, method, path] of cases) {
      const { id: _id, did: _did, ...body } = args;
      const rest = await t.call(method, `/api/v1${path}`, {
        key: user.key,
        ...((method === 'POST' || method === 'PUT') && Object.keys(body).length > 0 && { body }),
      });
      expect(rest.status, `${name} ${JSON.stringify(args)}`).toBeGreaterThanOrEqual(400);
      const said = await tool(name, args);
      expect([said.status, said.body], `${name} ${JSON.stringify(args)}`).toEqual([rest.status, rest.body]);
    }
    // A delivery still pending (its receiver does not answer) cannot be sent again: 409, as on REST.
    receiver.answer('/refusals', 'hang');
    const pending = (await tool('test_webhook', { id: hook.id })).body;
    const path = `/webhooks/${hook.id}/deliveries/${pending.id}/redeliver`;
    const rest = await t.call('POST', `/api/v1${path}`, { key: user.key });
    expect(rest.status).toBe(409);
    const said = await tool('redeliver_webhook_delivery', { id: hook.id, did: pending.id });
    expect([said.status, said.body]).toEqual([rest.status, rest.body]);
  });
});
