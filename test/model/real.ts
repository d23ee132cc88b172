import { randomBytes } from 'node:crypto';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import type { TestApp } from '../support/app.js';
import { cookieFrom, type Reply } from '../support/client.js';
import { newKey, type TestUser } from '../support/factories.js';
import type { Call } from './step.js';
import { ADMIN_INDEX, USERS } from './world.js';

/** The running service, the fake provider, and the users of one sequence (the last an administrator). */
export interface Real {
  t: TestApp;
  fake: FakeFourcms;
  users: TestUser[];
  /** What the server logged for the request that answered 500 with `requestId`. */
  serverError(requestId: unknown): string;
}

/**
 * Registers the sequence's users, each with a session and a key; the root
 * administrator makes the last one an administrator before its key is made.
 */
export async function newUsers(t: TestApp, root: TestUser): Promise<TestUser[]> {
  return Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      const email = `model-${randomBytes(5).toString('hex')}@example.test`;
      const registered = await t.call('POST', '/api/auth/register', { body: { email, password: 'password-123' } });
      if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
      const id: number = registered.body.user.id;
      if (i === ADMIN_INDEX) {
        const promoted = await t.call('PUT', `/api/admin/users/${id}`, {
          cookie: root.cookie,
          body: { is_admin: true },
        });
        if (promoted.status !== 200) throw new Error(`promote: ${promoted.status} ${promoted.text}`);
      }
      const cookie = cookieFrom(registered.headers);
      return { id, email, cookie, key: await newKey(t, cookie, 'model key') };
    }),
  );
}

/** An answer as the model compares it: the status, and the body (for MCP, the JSON of the tool's one text block). */
export interface Answer {
  status: number;
  /** Through an MCP tool: a success does not tell its exact 2xx. */
  mcp: boolean;
  body: any;
  text: string;
}

let rpcId = 0;

export async function send(real: Real, call: Call): Promise<Answer> {
  const user = real.users[call.who]!;
  if (call.via === 'mcp' && call.tool) {
    const args = {
      ...call.pathArgs,
      ...call.query,
      ...(call.body as object | undefined),
      ...(call.ifMatch !== undefined && { expected_version: call.ifMatch }),
    };
    const reply = await real.t.call('POST', '/api/v1/mcp', {
      key: user.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: call.tool, arguments: args } },
    });
    return fromMcp(reply);
  }
  const session = call.admin || call.via === 'cookie';
  const reply = await real.t.call(call.method, `${session ? '/api' : '/api/v1'}${call.path}`, {
    ...(session ? { cookie: user.cookie } : { key: user.key }),
    query: call.query,
    body: call.body,
    ...(call.ifMatch !== undefined && { headers: { 'if-match': `W/"${call.ifMatch}"` } }),
  });
  return { status: reply.status, mcp: false, body: reply.body, text: reply.text };
}

function fromMcp(reply: Reply): Answer {
  const result = reply.body?.result;
  // Not a tool's answer (the protocol refused the message): a status no step expects.
  if (reply.status !== 200 || !result) return { status: 0, mcp: true, body: reply.body, text: reply.text };
  // The result once, as the one text block's JSON: an answer that carries it twice is one no step expects.
  const [block, ...more] = result.content ?? [];
  if (result.structuredContent !== undefined || more.length || block?.type !== 'text')
    return { status: 0, mcp: true, body: result, text: `the result is not sent once: ${reply.text}` };
  const body = JSON.parse(block.text);
  if (result.isError) return { status: body.status, mcp: true, body, text: reply.text };
  return { status: 200, mcp: true, body, text: reply.text };
}

/** Whether the answer is one the model allows: the same status (for MCP, any 2xx the model expects). */
export const allowed = (answer: Answer, statuses: number[]) =>
  answer.mcp && answer.status === 200 ? statuses.some((s) => s < 300) : statuses.includes(answer.status);

export const succeeded = (answer: Answer) => answer.status >= 200 && answer.status < 300;
