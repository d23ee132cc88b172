/**
 * The fourcms adapter over undici's `fetch`, through the
 * outbound guard's agent (every connection's addresses checked as it is made).
 *
 *   POST {base_url}/documents       → 201 {id, slug}
 *   PUT  {base_url}/documents/{id}  → 200 {id, slug}
 *   GET  {base_url}/me              → 200 {id, name} (the connection check)
 *
 * Every failure becomes `badGateway(message)`; the message carries the
 * provider's own words when it sent some, and never the token (it is also
 * scrubbed from whatever the provider echoes back).
 */
import { STATUS_CODES } from 'node:http';
import { cjsExports } from '../../shared/cjs-exports.js';
import { AppError, badGateway } from '../../shared/errors.js';
import type { Response } from 'undici';
import { checkOutboundTarget, OutboundRefusedError, outboundAgent } from '../outbound-guard.js';
import type {
  CmsProvider,
  ProviderAccount,
  ProviderSettings,
  PublishDocument,
  PublishedRef,
  PublishUpdate,
} from '../../modules/publishing/publishing.js';
import { DEFAULT_PROVIDER_TIMEOUT_MS, type ProviderFactory, type ProviderOptions } from '../provider.js';

const NAME = 'fourcms';
/** An answer is an id and a slug; anything this large is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** The provider's message is shown to API clients: keep it short. */
const MAX_PROVIDER_MESSAGE = 300;

export class FourcmsProvider implements CmsProvider {
  private readonly timeoutMs: number;

  constructor(
    private readonly settings: ProviderSettings,
    private readonly options: ProviderOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  }

  publish(doc: PublishDocument): Promise<PublishedRef> {
    return this.call('POST', '/documents', doc, parseRef);
  }

  update(id: string, doc: PublishUpdate): Promise<PublishedRef> {
    return this.call('PUT', `/documents/${encodeURIComponent(id)}`, doc, parseRef);
  }

  check(): Promise<ProviderAccount> {
    return this.call('GET', '/me', undefined, parseAccount);
  }

  private async call<T>(
    method: 'POST' | 'PUT' | 'GET',
    path: string,
    body: unknown,
    parse: (status: number, text: string) => T,
  ): Promise<T> {
    // One deadline for the whole call: the guard's DNS lookup, the connection and the answer body.
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      // Checked again here, not only when the settings were saved: DNS can change in between. The host's
      // addresses are checked by the agent's lookup, on the very addresses the connection then uses.
      const guard = {
        allowPrivate: this.options.allowPrivate,
        ...(this.options.lookup && { lookup: this.options.lookup }),
      };
      const decision = checkOutboundTarget(this.settings.base_url, guard);
      if (!decision.allowed) throw badGateway(`${NAME} was not called: ${decision.reason}`);

      // undici is loaded at the first call, not at every start (bench B5).
      const [{ fetch }, dispatcher] = await Promise.all([import('undici').then(cjsExports), outboundAgent(guard)]);
      const response = await fetch(endpoint(decision.url, path), {
        method,
        headers: {
          authorization: `Bearer ${this.settings.token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
          accept: 'application/json',
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        // A redirect could lead past the guard (to 169.254.169.254, say): never follow one.
        redirect: 'manual',
        signal,
        dispatcher,
      });
      const text = await readCapped(response, MAX_ANSWER_BYTES);

      if (response.status >= 300 && response.status < 400) {
        throw badGateway(`${NAME} answered ${statusLine(response)}, a redirect, which is not followed; check base_url`);
      }
      if (!response.ok) {
        const own = providerMessage(text);
        const transient = response.status >= 500 || response.status === 429 || response.status === 408;
        throw badGateway(`${NAME} answered ${statusLine(response)}${own ? `: ${own}` : ''}`, undefined, transient);
      }
      return parse(response.status, text);
    } catch (error) {
      throw this.scrub(translate(error, signal, this.timeoutMs));
    }
  }

  /** The last line of defence: whatever the message says, the token is not in it. */
  private scrub(error: AppError): AppError {
    const token = this.settings.token;
    if (!token || !error.message.includes(token)) return error;
    return badGateway(error.message.split(token).join('[redacted]'), undefined, error.transient);
  }
}

export const createFourcmsProvider: ProviderFactory = (settings, options) => new FourcmsProvider(settings, options);

/** `{base_url}` + path, keeping a path prefix (`https://cms.example/api`) and any query of base_url. */
function endpoint(base: URL, path: string): URL {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  url.hash = '';
  return url;
}

const statusLine = (response: Response): string =>
  `${response.status} ${response.statusText || STATUS_CODES[response.status] || ''}`.trim();

async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw badGateway(`${NAME} answered ${statusLine(response)} with a body larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Short, single-line, printable: the provider's text ends up in an API answer. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > MAX_PROVIDER_MESSAGE ? `${flat.slice(0, MAX_PROVIDER_MESSAGE)}…` : flat;
}

/** The provider's own message in an error answer: `{error}`, `{message}`, `{error: {message}}`, `{detail}` or `{title}`. */
function providerMessage(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(body)) return undefined;
  const nested = isRecord(body.error) ? body.error.message : undefined;
  for (const candidate of [body.error, body.message, nested, body.detail, body.title]) {
    if (typeof candidate === 'string' && candidate.trim()) return clean(candidate);
  }
  return undefined;
}

/** The answer's JSON object and its `id` as a string; a 502 naming `what` when there is none. */
function idOf(status: number, text: string, what: string): { id: string; body: Record<string, unknown> } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badGateway(`${NAME} answered ${status} with a body that is not valid JSON`);
  }
  const id = isRecord(body) ? body.id : undefined;
  let normalized: string | undefined;
  if (typeof id === 'string' && id.trim()) normalized = id;
  else if (typeof id === 'number' && Number.isFinite(id)) normalized = String(id);
  if (normalized === undefined || !isRecord(body)) throw badGateway(`${NAME} answered ${status} without ${what}`);
  return { id: normalized, body };
}

function parseRef(status: number, text: string): PublishedRef {
  const { id, body } = idOf(status, text, 'a document id');
  return { id, slug: typeof body.slug === 'string' ? body.slug : null };
}

function parseAccount(status: number, text: string): ProviderAccount {
  const { id, body } = idOf(status, text, 'an account id');
  return { id, name: typeof body.name === 'string' ? clean(body.name) : null };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Low-level failures as node's fetch reports them (`TypeError: fetch failed` with a coded `cause`). */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** The guard's refusal, wherever fetch wrapped it. */
function refusal(error: unknown): OutboundRefusedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof OutboundRefusedError) return current;
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    // Several addresses tried in turn fail together as an AggregateError.
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}

function translate(error: unknown, signal: AbortSignal, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  const refused = refusal(error);
  if (refused) return badGateway(`${NAME} was not called: ${refused.message}`);
  // Unanswered, unreachable or cut: a later try may find the provider back.
  if (signal.aborted) return badGateway(`${NAME} did not answer within ${formatMs(timeoutMs)}`, undefined, true);
  const code = causeCode(error);
  if (code && UNREACHABLE[code]) return badGateway(`${NAME} is unreachable: ${UNREACHABLE[code]}`, undefined, true);
  if (code && CLOSED.has(code))
    return badGateway(`${NAME} closed the connection without a complete answer`, undefined, true);
  if (code && /CERT|SSL|TLS/.test(code))
    return badGateway(`${NAME} is unreachable: its TLS certificate was rejected (${code})`);
  // Node's own messages may name internal addresses; only a bare error code is passed on.
  return badGateway(`${NAME} is unreachable${code && /^[A-Z0-9_]+$/.test(code) ? ` (${code})` : ''}`);
}

const formatMs = (ms: number): string => (ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
