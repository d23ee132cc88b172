import { performance } from 'node:perf_hooks';
import type { SendResult, WebhookSender } from '../../modules/webhooks/webhooks.js';
import { cjsExports } from '../../shared/cjs-exports.js';
import { checkOutboundTarget, OutboundRefusedError, outboundAgent, type GuardOptions } from '../outbound-guard.js';

/**
 * Webhook deliveries over HTTP: a POST of the signed JSON body through the
 * outbound guard, checked on the addresses the connection uses (a DNS answer
 * that changed since the endpoint was saved cannot slip past), no redirect
 * followed, one deadline for the whole attempt, and at most `excerptBytes`
 * of the answer read (the rest is dropped with the connection).
 */
export function httpWebhookSender(options: GuardOptions & { timeoutMs: number; excerptBytes: number }): WebhookSender {
  const guard: GuardOptions = { allowPrivate: options.allowPrivate, ...(options.lookup && { lookup: options.lookup }) };
  return async ({ url, headers, body }) => {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    const decision = checkOutboundTarget(url, guard);
    if (!decision.allowed) return failure(took(), `Not sent: ${decision.reason.replace('base_url', 'url')}.`, false);
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const [{ fetch }, dispatcher] = await Promise.all([import('undici').then(cjsExports), outboundAgent(guard)]);
      const response = await fetch(decision.url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Pageblocks-Webhooks/1' },
        body,
        redirect: 'manual',
        signal,
        dispatcher,
      });
      const excerpt = await readExcerpt(response.body, options.excerptBytes);
      const status = response.status;
      return {
        status,
        durationMs: took(),
        error:
          status >= 200 && status < 300
            ? null
            : `The receiver answered ${status}${status < 400 ? ' (a redirect is not followed)' : ''}.`,
        excerpt,
        transient: status >= 500 || status === 408 || status === 429,
      };
    } catch (error) {
      if (refused(error))
        return failure(took(), 'Not sent: the address is internal (the outbound guard refused it).', false);
      if (signal.aborted) return failure(took(), `No answer within ${options.timeoutMs} ms.`, true);
      const code = codeOf(error);
      return failure(took(), `The receiver could not be reached${code ? ` (${code})` : ''}.`, true);
    }
  };
}

const failure = (durationMs: number, error: string, transient: boolean): SendResult => ({
  status: null,
  durationMs,
  error,
  excerpt: null,
  transient,
});

/** The first `limit` bytes of the answer as text, the stream cancelled past them. */
async function readExcerpt(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<string | null> {
  if (!stream) return null;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= limit) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const text = Buffer.concat(chunks).subarray(0, limit).toString('utf8');
  return text.length ? text : null;
}

function walk(error: unknown, test: (value: object) => boolean): object | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if (test(current)) return current;
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}

const refused = (error: unknown) => walk(error, (value) => value instanceof OutboundRefusedError) !== undefined;

/** A bare error code only: node's messages may name internal addresses. */
function codeOf(error: unknown): string | undefined {
  const found = walk(error, (value) => typeof (value as { code?: unknown }).code === 'string') as
    { code: string } | undefined;
  return found && /^[A-Z0-9_]+$/.test(found.code) ? found.code : undefined;
}
