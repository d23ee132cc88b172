import type { FastifyRequest } from 'fastify';
import { forbidden, unauthenticated } from '../../shared/errors.js';
import { isObject } from '../../shared/is-object.js';
import type { ApiKeysService } from '../../modules/api-keys/api-keys.service.js';
import type { PageReads } from '../page-reads.js';
import { MCP_MARK, MCP_MARK_HEADER } from '../mcp-mark.js';

export const KEY_REQUIRED =
  'An API key is required: send it in the Authorization header as "Authorization: Bearer pb_<64 hex characters>".';
const KEY_ELSEWHERE =
  'API keys are accepted only in the Authorization header ("Authorization: Bearer pb_…"), never in the query string or another header.';

const QUERY_KEY_NAMES = ['api_key', 'apikey', 'api-key', 'access_token', 'key'];
const HEADER_KEY_NAMES = ['x-api-key', 'api-key', 'x-api-token'];

/**
 * The API-key contour: a key in the Authorization header and nowhere else. A
 * page read's version is read with the key (`pageReads`: which page, and
 * where the version goes).
 */
export function apiKeyAuth(apiKeys: ApiKeysService, pageReads: PageReads) {
  return async (request: FastifyRequest) => {
    const query = isObject(request.query) ? request.query : {};
    if (QUERY_KEY_NAMES.some((name) => name in query) || HEADER_KEY_NAMES.some((name) => name in request.headers)) {
      throw unauthenticated(KEY_ELSEWHERE);
    }
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthenticated(KEY_REQUIRED);
    const key = await apiKeys.authenticate(match[1]!, pageReads.pageToRead(request));
    if (key.isBlocked) throw forbidden('This account is blocked.');
    const viaMcp = request.headers[MCP_MARK_HEADER] === MCP_MARK;
    request.actor = { ...key.actor, via: { kind: viaMcp ? 'mcp' : 'key', keyPrefix: key.prefix } };
    request.keyPrefix = key.prefix;
    pageReads.readWithKey(request, key.pageVersion);
  };
}
