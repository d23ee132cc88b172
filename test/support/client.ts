export interface CallOptions {
  body?: unknown;
  /** Sent as is, not JSON-encoded. */
  rawBody?: string | Buffer | FormData;
  key?: string;
  cookie?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Client {
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<Reply<T>>;
}

/** A thin fetch wrapper over real HTTP: what an integration would send. */
export function client(baseUrl: string): Client {
  return {
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      let body: string | Buffer | FormData | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = JSON.stringify(options.body);
      }
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      if (options.cookie) headers.cookie = options.cookie;
      const query = options.query
        ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
        : '';
      return replyOf(await fetch(`${baseUrl}${path}${query}`, { method, headers, body: body as never }));
    },
  };
}

/** An answer read whole: its text, and its JSON when it is JSON. */
export async function replyOf(response: Response): Promise<Reply> {
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as never, text };
}

/** `name=value` of a Set-Cookie header, ready to send back. */
export function cookieFrom(headers: Headers, name = 'pb_session'): string {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie in ${JSON.stringify(headers.getSetCookie())}`);
  return line.split(';')[0]!;
}
