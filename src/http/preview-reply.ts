import type { FastifyReply } from 'fastify';

/**
 * A preview runs the blocks' own JS: an opaque origin (CSP `sandbox` without
 * `allow-same-origin`) keeps it away from the service's cookies and storage,
 * even when the preview is opened on its own rather than in the app's
 * sandboxed iframe.
 */
export const sendPreview = (reply: FastifyReply, html: string) =>
  reply
    .header('content-security-policy', 'sandbox allow-scripts')
    .header('x-content-type-options', 'nosniff')
    .type('text/html; charset=utf-8')
    .send(html);
