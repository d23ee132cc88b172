import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/shared/errors.js';
import { startFakeFourcms, type FakeFourcms } from '../../../src/providers/fourcms/fake-server.js';
import { FourcmsProvider } from '../../../src/providers/fourcms/fourcms.provider.js';
import type { PublishDocument } from '../../../src/modules/publishing/publishing.js';
import type { ProviderOptions } from '../../../src/providers/provider.js';

const TOKEN = 'tok-Sup3rSecret-4c1d';
// Generous: on a loaded machine the fake server can take over 2 s to answer.
const local: ProviderOptions = { allowPrivate: true, timeoutMs: 5_000 };

const doc = (overrides: Partial<PublishDocument> = {}): PublishDocument => ({
  kind: 'article',
  title: 'Hello, Wörld',
  rubric_ids: [3],
  meta_title: 'Hello',
  html: '<h1>Hello</h1>',
  css: 'h1{color:red}',
  js: '',
  blocks: [
    {
      id: 11,
      block_id: 7,
      version: { major: 1, minor: 2 },
      template: '<h1>{{ title }}</h1>',
      placeholder_values: { title: 'Hello' },
      bindings: null,
    },
  ],
  ...overrides,
});

/** The rejection of `work`, which must be a bad_gateway AppError that does not leak `secret`. */
async function badGateway(work: Promise<unknown>, secret = TOKEN): Promise<AppError> {
  const error = await work.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.kind).toBe('bad_gateway');
  expect(appError.message).not.toBe('');
  for (const text of [
    appError.message,
    String(appError.stack),
    JSON.stringify({ ...appError, message: appError.message }),
  ]) {
    expect(text).not.toContain(secret);
  }
  return appError;
}

/** A one-off loopback server for answers the fake does not give. */
async function oneOff(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let fake: FakeFourcms;
beforeEach(async () => {
  fake = await startFakeFourcms({ token: TOKEN });
});
afterEach(async () => {
  await fake.close();
});

describe('fourcms adapter against the fake server', () => {
  it('publishes, then updates the same document', async () => {
    const provider = new FourcmsProvider({ base_url: fake.url, token: TOKEN }, local);

    const published = await provider.publish(doc());
    expect(published).toEqual({ id: '1', slug: 'hello-world' });

    const updated = await provider.update(published.id, {
      html: '<h1>Bye</h1>',
      css: '',
      js: '',
      blocks: [],
      meta_title: 'Bye',
    });
    expect(updated).toEqual({ id: '1', slug: 'hello-world' });

    expect(fake.documents.size).toBe(1);
    expect(fake.documents.get('1')).toMatchObject({
      title: 'Hello, Wörld',
      html: '<h1>Bye</h1>',
      meta_title: 'Bye',
      rubric_ids: [3],
    });
    expect(fake.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['POST', '/documents', `Bearer ${TOKEN}`],
      ['PUT', '/documents/1', `Bearer ${TOKEN}`],
    ]);
    expect(fake.requests[0]?.body).toEqual(doc());
  });

  it('keeps the slug it was given and a path prefix of base_url', async () => {
    const provider = new FourcmsProvider({ base_url: `${fake.url}/`, token: TOKEN }, local);
    expect(await provider.publish(doc({ slug: 'my-slug' }))).toEqual({ id: '1', slug: 'my-slug' });
    expect(fake.requests[0]?.path).toBe('/documents');
  });

  it('normalizes ids sent as numbers and as strings to strings', async () => {
    const numeric = await new FourcmsProvider({ base_url: fake.url, token: TOKEN }, local).publish(doc());
    const stringly = await startFakeFourcms({ token: TOKEN, ids: 'string' });
    try {
      const other = await new FourcmsProvider({ base_url: stringly.url, token: TOKEN }, local).publish(doc());
      expect(numeric.id).toBe('1');
      expect(other.id).toBe('doc-1');
      expect(stringly.documents.has('doc-1')).toBe(true);
    } finally {
      await stringly.close();
    }
  });
});

describe('fourcms adapter failures', () => {
  const provider = () => new FourcmsProvider({ base_url: fake.url, token: TOKEN }, local);

  it('500: the provider message is passed on', async () => {
    fake.failNext('500');
    const error = await badGateway(provider().publish(doc()));
    expect(error.message).toContain('fake provider failure');
    expect(error.message).toContain('500');
  });

  it('401 (queued): the provider message is passed on', async () => {
    fake.failNext('401');
    const error = await badGateway(provider().publish(doc()));
    expect(error.message).toContain('invalid token');
  });

  it('401 (a wrong token): the message names neither token', async () => {
    const wrong = 'tok-Wr0ng-9f9f';
    const error = await badGateway(
      new FourcmsProvider({ base_url: fake.url, token: wrong }, local).publish(doc()),
      wrong,
    );
    expect(error.message).toContain('invalid token');
    expect(error.message).not.toContain(TOKEN);
    expect(fake.documents.size).toBe(0);
  });

  it('404 on an update of an unknown document', async () => {
    const error = await badGateway(provider().update('999', { html: '', css: '', js: '', blocks: [] }));
    expect(error.message).toContain('document not found');
    expect(error.message).toContain('404');
  });

  it('malformed JSON in a 2xx answer', async () => {
    fake.failNext('malformed');
    const error = await badGateway(provider().publish(doc()));
    expect(error.message).toMatch(/not valid JSON/);
  });

  it('connection closed without an answer', async () => {
    fake.failNext('close');
    const error = await badGateway(provider().publish(doc()));
    expect(error.message).toMatch(/closed the connection/);
  });

  it('no answer: gives up at the time-out', async () => {
    fake.failNext('hang');
    const started = Date.now();
    const error = await badGateway(
      new FourcmsProvider({ base_url: fake.url, token: TOKEN }, { allowPrivate: true, timeoutMs: 300 }).publish(doc()),
    );
    const elapsed = Date.now() - started;
    expect(error.message).toMatch(/did not answer within 300 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('nothing listening on the port', async () => {
    const gone = await oneOff(() => undefined);
    await gone.close();
    const error = await badGateway(new FourcmsProvider({ base_url: gone.url, token: TOKEN }, local).publish(doc()));
    expect(error.message).toMatch(/unreachable: connection refused/);
  });

  it('a 2xx answer without an id', async () => {
    const server = await oneOff((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ slug: 'x' }));
    });
    try {
      const error = await badGateway(new FourcmsProvider({ base_url: server.url, token: TOKEN }, local).publish(doc()));
      expect(error.message).toMatch(/without a document id/);
    } finally {
      await server.close();
    }
  });

  it('a provider message that echoes the token is scrubbed', async () => {
    const server = await oneOff((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `rubric 3 does not exist (auth: ${req.headers.authorization})` }));
    });
    try {
      const error = await badGateway(new FourcmsProvider({ base_url: server.url, token: TOKEN }, local).publish(doc()));
      expect(error.message).toContain('rubric 3 does not exist');
      expect(error.message).toContain('[redacted]');
    } finally {
      await server.close();
    }
  });

  it('an error answer without a JSON message gives the status text', async () => {
    const server = await oneOff((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html>down</html>');
    });
    try {
      const error = await badGateway(new FourcmsProvider({ base_url: server.url, token: TOKEN }, local).publish(doc()));
      expect(error.message).toBe('fourcms answered 503 Service Unavailable');
    } finally {
      await server.close();
    }
  });

  it('a redirect is not followed', async () => {
    const server = await oneOff((_req, res) => {
      res.writeHead(307, { location: `${fake.url}/documents` });
      res.end();
    });
    try {
      const error = await badGateway(new FourcmsProvider({ base_url: server.url, token: TOKEN }, local).publish(doc()));
      expect(error.message).toMatch(/redirect/);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('fourcms adapter and the outbound guard', () => {
  it('does not call a loopback base_url without allowPrivate', async () => {
    const provider = new FourcmsProvider(
      { base_url: fake.url, token: TOKEN },
      { allowPrivate: false, timeoutMs: 2_000 },
    );
    const error = await badGateway(provider.publish(doc()));
    expect(error.message).toMatch(/was not called/);
    expect(fake.requests).toHaveLength(0);
  });

  it('checks the host again before each call', async () => {
    const { port } = new URL(fake.url);
    let answer = '93.184.216.34';
    const lookups: string[] = [];
    const provider = new FourcmsProvider(
      { base_url: `http://fourcms.test:${port}`, token: TOKEN },
      {
        allowPrivate: false,
        timeoutMs: 2_000,
        lookup: async (host) => {
          lookups.push(host);
          return [answer];
        },
      },
    );
    // Settings time would have accepted it; now it resolves to an internal address.
    answer = '10.0.0.5';
    const error = await badGateway(provider.publish(doc()));
    expect(error.message).toMatch(/was not called/);
    expect(lookups).toEqual(['fourcms.test']);
    expect(fake.requests).toHaveLength(0);
  });

  it('connects only to the address it checked: the name is never resolved again behind the guard', async () => {
    // The guard's resolver says "public"; the system resolver would say 127.0.0.1, where the fake listens.
    // A second resolution at connect time (a DNS rebind) reached the fake; now the connection uses the answer checked.
    const { port } = new URL(fake.url);
    const lookups: string[] = [];
    const provider = new FourcmsProvider(
      { base_url: `http://localhost:${port}`, token: TOKEN },
      {
        allowPrivate: false,
        timeoutMs: 1_000,
        lookup: async (host) => {
          lookups.push(host);
          return ['192.88.98.1'];
        },
      },
    );
    await badGateway(provider.publish(doc()));
    expect(fake.requests).toHaveLength(0);
    expect(lookups).toEqual(['localhost']);
  });

  it('refuses, at connect time, a name that now resolves to an internal address', async () => {
    const { port } = new URL(fake.url);
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const options: ProviderOptions = { allowPrivate: false, timeoutMs: 2_000, lookup: async () => answers.shift()! };
    // Settings time: public.
    const { assertPublicUrl } = await import('../../../src/providers/outbound-guard.js');
    await assertPublicUrl(`http://rebind.test:${port}`, { allowPrivate: false, lookup: options.lookup! });
    const error = await badGateway(
      new FourcmsProvider({ base_url: `http://rebind.test:${port}`, token: TOKEN }, options).publish(doc()),
    );
    expect(error.message).toMatch(/was not called: .*internal address/);
    expect(fake.requests).toHaveLength(0);
    expect(answers).toEqual([]);
  });

  it('counts a slow DNS lookup against the time-out', async () => {
    const provider = new FourcmsProvider(
      { base_url: 'http://slow-dns.test/', token: TOKEN },
      { allowPrivate: false, timeoutMs: 300, lookup: () => new Promise<string[]>(() => undefined) },
    );
    const error = await badGateway(provider.publish(doc()));
    expect(error.message).toMatch(/did not answer within 300 ms/);
  });
});
