import cors from '@fastify/cors';
import type { App } from './context.js';

/**
 * Browsers on the origins of `CORS_ORIGINS` may call `/api/v1` with a key
 * (preflight included). Off when the list is empty. No cookies cross: the key
 * contour reads none.
 */
export async function registerCors(scope: App, origins: string[]) {
  if (origins.length === 0) return;
  await scope.register(cors, {
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'x-request-id', 'if-match'],
    exposedHeaders: ['x-request-id', 'retry-after', 'allow', 'etag'],
    credentials: false,
    maxAge: 600,
  });
}
