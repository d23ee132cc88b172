import createClient, { type Client } from 'openapi-fetch';
import { createContext, useContext } from 'react';
import { ApiError } from './errors';
import { SessionGuard } from '../auth/session-guard';
import { PageWriteGuard } from './page-versions';
import type { paths } from './schema.gen';

export type Api = Client<paths>;
export type { paths };

/**
 * The typed client of the session contour. Same origin, so the browser sends
 * the session cookie and its own Origin (the service's CSRF check needs it).
 * Tests pass their own `fetch` (a fake service at the network boundary).
 */
export function createApi(fetchImpl?: typeof fetch): Api {
  const api = createClient<paths>({
    baseUrl: '',
    credentials: 'same-origin',
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  // Every page write carries If-Match with the version the editor shows (page-versions.ts).
  const guard = new PageWriteGuard();
  api.use(guard.middleware);
  guards.set(api, guard);
  // Last, so that it sees each request as sent: a 401 waits for a sign-in and goes again (session-guard.ts).
  const session = new SessionGuard(fetchImpl);
  api.use(session.middleware);
  sessions.set(api, session);
  return api;
}

const sessions = new WeakMap<Api, SessionGuard>();

/** A client's lost-session guard: the session-lost dialog opens while it holds a 401. */
export function sessionGuardOf(api: Api): SessionGuard {
  const session = sessions.get(api);
  if (!session) throw new Error('sessionGuardOf: the client was not made by createApi');
  return session;
}

const guards = new WeakMap<Api, PageWriteGuard>();

export const ApiContext = createContext<Api | null>(null);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiContext.Provider>');
  return api;
}

/** A client's page versions: which one the editor's writes expect, and the conflicts it is told of. */
export function pageWriteGuardOf(api: Api): PageWriteGuard {
  const guard = guards.get(api);
  if (!guard) throw new Error('pageWriteGuardOf: the client was not made by createApi');
  return guard;
}

export const usePageWriteGuard = (): PageWriteGuard => pageWriteGuardOf(useApi());

/**
 * An openapi-fetch result → its data, or a thrown ApiError. Query and
 * mutation functions go through it:
 *   queryFn: () => unwrap(api.GET('/api/sites'))
 */
export async function unwrap<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(response.status, error, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
  }
  return data as T;
}
