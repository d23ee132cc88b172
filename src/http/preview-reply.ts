import type { FastifyReply } from 'fastify';

/**
 * A preview runs the blocks' own JS: an opaque origin (CSP `sandbox` without
 * `allow-same-origin`) keeps it away from the service's cookies and storage,
 * even when the preview is opened on its own rather than in the app's
 * sandboxed iframe.
 */
export const sendPreview = (reply: FastifyReply, html: string | Buffer) =>
  reply
    .header('content-security-policy', 'sandbox allow-scripts')
    .header('x-content-type-options', 'nosniff')
    .type('text/html; charset=utf-8')
    .send(html);

/**
 * Aborted when the client goes away before its answer is sent: a render still
 * waiting for a thread then gives its place in the queue back (`RenderFor.signal`).
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  // Gone already (before the handler ran): nothing will say so again.
  if (reply.raw.destroyed || reply.request.raw.destroyed) controller.abort();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
