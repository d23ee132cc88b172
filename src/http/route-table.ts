import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const KNOWN: ReadonlySet<string> = new Set(METHODS);
const isTracked = (method: string): method is HTTPMethod => KNOWN.has(method);

/**
 * A shadow of the route table that answers "which methods does this path
 * have?", which Fastify's router does not, so that a wrong method gets a 405.
 */
export interface RouteTable {
  /** Methods that exist for a concrete path. */
  allowedMethods: (path: string) => string[];
  /** Every route as `METHOD /url/:param`, in registration order. */
  readonly routes: string[];
}

export function trackRoutes(app: FastifyInstance): RouteTable {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  const routes: string[] = [];
  const noop = () => undefined;
  app.addHook('onRoute', (route) => {
    // The web app's files are served by a catch-all `GET /*`: it would make every path "exist" for GET.
    if (route.url === '/*') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (isTracked(method) && !router.hasRoute(method, route.url)) {
        router.on(method, route.url, noop);
        routes.push(`${method} ${route.url}`);
      }
    }
  });
  return { allowedMethods: (path) => METHODS.filter((method) => router.find(method, path) !== null), routes };
}
