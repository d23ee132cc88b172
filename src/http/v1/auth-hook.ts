import type { FastifyRequest } from 'fastify';
import { forbidden, unauthenticated } from '../../shared/errors.js';
import { isObject } from '../../shared/is-object.js';
import type { ApiKeysService } from '../../modules/api-keys/api-keys.service.js';

export const KEY_REQUIRED =
  'An API key is required: send it in the Authorization header as "Authorization: Bearer pb_<64 hex characters>".';
const KEY_ELSEWHERE =
  'API keys are accepted only in the Authorization header ("Authorization: Bearer pb_…"), never in the query string or another header.';

const QUERY_KEY_NAMES = ['api_key', 'apikey', 'api-key', 'access_token', 'key'];
const HEADER_KEY_NAMES = ['x-api-key', 'api-key', 'x-api-token'];

/**
 * The page a `readsPage` route answers, so that its version is read with the
 * key. The parameters are not validated yet: anything but an id the column
 * can hold is left to the route's own validation.
 */
function readPageId(request: FastifyRequest): number | undefined {
  if (!request.routeOptions.config.readsPage) return undefined;
  const id = isObject(request.params) ? request.params.id : undefined;
  if (typeof id !== 'string' || !/^[1-9][0-9]{0,9}$/.test(id)) return undefined;
  const n = Number(id);
  return n <= 2_147_483_647 ? n : undefined;
}

/** The API-key contour: a key in the Authorization header and nowhere else. */
export function apiKeyAuth(apiKeys: ApiKeysService) {
  return async (request: FastifyRequest) => {
    const query = isObject(request.query) ? request.query : {};
    if (QUERY_KEY_NAMES.some((name) => name in query) || HEADER_KEY_NAMES.some((name) => name in request.headers)) {
      throw unauthenticated(KEY_ELSEWHERE);
    }
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthenticated(KEY_REQUIRED);
    const key = await apiKeys.authenticate(match[1]!, readPageId(request));
    if (key.isBlocked) throw forbidden('This account is blocked.');
    request.actor = key.actor;
    request.keyPrefix = key.prefix;
    request.pageVersion = key.pageVersion ?? null;
  };
}
