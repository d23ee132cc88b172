import createClient, { type Client } from 'openapi-fetch';
import { createContext, useContext } from 'react';
import { ApiError } from './errors';
import type { paths } from './schema.gen';

export type Api = Client<paths>;
export type { paths };

/**
 * The typed client of the session contour. Same origin, so the browser sends
 * the session cookie and its own Origin (the service's CSRF check needs it).
 * Tests pass their own `fetch` (a fake service at the network boundary).
 */
export function createApi(fetchImpl?: typeof fetch): Api {
  return createClient<paths>({
    baseUrl: '',
    credentials: 'same-origin',
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}

export const ApiContext = createContext<Api | null>(null);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiContext.Provider>');
  return api;
}

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
