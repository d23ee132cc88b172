import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './context.js';

/**
 * Paths that belong to the service, never to the app: no file of the app and
 * no HTML fallback is served under them, so an API client always gets JSON.
 */
export const SERVICE_PATHS = ['/api', '/uploads', '/health', '/ready', '/metrics', '/docs'];

/**
 * The app's policy: its own scripts only (no inline script, no event
 * handler attribute, no eval), never framed. One allowance, for a library:
 * `style-src 'unsafe-inline'` because Mantine writes its styles into `<style>`
 * elements at run time (styles only: no script runs from them). The JSON
 * Schema forms validate with an interpreter (web/src/forms/schema-validator.ts),
 * not with Ajv's generated functions, so no `'unsafe-eval'`. Images may come
 * from any https origin (a bucket's public URL, an image field's value).
 * Previews are framed from the host page below, never `srcdoc` (which would
 * inherit this policy and stop the blocks' scripts).
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** The page that holds previews (web/public/preview-frame.html), framed by the app only. */
const PREVIEW_HOST = 'preview-frame.html';
/** A sandbox and nothing else, as the preview routes send: the blocks' own scripts and styles run, in an opaque origin. */
export const PREVIEW_HOST_CSP = "sandbox allow-scripts; frame-ancestors 'self'";

/** The app's own routes (`/pages/12`) are answered with its index.html. */
export interface WebAppFallback {
  /** Answers the request with the app (or why it is missing); false when the request is not the app's. */
  (request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

const isServicePath = (path: string) =>
  SERVICE_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * The browser app: the files that its build wrote to `dir` (Vite's `dist/`),
 * streamed by @fastify/static, precompressed. Files under `assets/` carry a content hash in
 * their name, so they are cached for good; everything else (index.html first)
 * is revalidated on every load, so a new build reaches browsers at once.
 * The directory is looked at per request: building while the service runs
 * needs no restart.
 */
export async function registerWebApp(app: App, options: { dir: string }): Promise<WebAppFallback> {
  const root = resolve(options.dir);
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // The wildcard route serves files built after the start too; route-table.ts leaves it out of 405 answers.
    wildcard: true,
    index: ['index.html'],
    dotfiles: 'ignore',
    cacheControl: false,
    suppressWarning: true,
    allowedPath: (path) => !isServicePath(path),
    // The build writes each text file beside itself as .br and .gz (scripts/precompress.mjs): the
    // variant the browser accepts is sent as it is, with Vary: Accept-Encoding.
    preCompressed: true,
    setHeaders: (reply, served) => {
      // The headers are those of the file the variant encodes (index.html for index.html.br).
      const path = served.replace(/\.(?:br|gz)$/, '');
      const hashed = path.startsWith(join(root, 'assets') + '/');
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      reply.header('x-content-type-options', 'nosniff');
      if (path === join(root, PREVIEW_HOST)) {
        reply.header('content-security-policy', PREVIEW_HOST_CSP);
      } else if (path.endsWith('.html')) {
        reply.header('content-security-policy', APP_CSP);
        reply.header('x-frame-options', 'DENY');
        reply.header('referrer-policy', 'same-origin');
      }
    },
  });

  return async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    if (isServicePath(path)) return false;
    // `/` is the app's address; elsewhere only a browser navigation (it asks for HTML) gets the app.
    if (path !== '/' && !acceptsHtml(request.headers.accept)) return false;
    const built = await access(join(root, 'index.html')).then(
      () => true,
      () => false,
    );
    if (built) {
      await reply.sendFile('index.html');
      return true;
    }
    const message = `The web app is not built: run "npm run build", or set WEB_DIR to the directory of a built app (now "${options.dir}").`;
    reply.status(503).header('cache-control', 'no-store').header('retry-after', '60');
    if (acceptsHtml(request.headers.accept)) {
      await reply.type('text/html; charset=utf-8').send(notBuiltPage(message));
    } else {
      await reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send({ error: message });
    }
    return true;
  };
}

/** Does an Accept header name text/html (with a non-zero weight)? */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'text/html') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function notBuiltPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pageblocks: the web app is not built</title></head>
<body><h1>The web app is not built</h1><p>${escapeHtml(message)}</p>
<p>The API answers meanwhile: <a href="/api/v1/docs">/api/v1/docs</a>.</p></body></html>
`;
}
