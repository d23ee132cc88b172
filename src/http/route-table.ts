import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A shadow of the route table that answers "which methods does this path
 * have?", which Fastify's router does not, so that a wrong method gets a 405.
 */
export function trackRoutes(app: FastifyInstance): (path: string) => string[] {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  const noop = () => undefined;
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !router.hasRoute(method as HTTPMethod, route.url)) {
        router.on(method as HTTPMethod, route.url, noop);
      }
    }
  });
  return (path) => METHODS.filter((method) => router.find(method, path) !== null);
}
