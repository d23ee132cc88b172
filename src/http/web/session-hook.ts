import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService } from '../../modules/auth/auth.service.js';
import { forbidden, unauthenticated } from '../../shared/errors.js';

export const SESSION_COOKIE = 'pb_session';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Routes a blocked account may still call: to see that it is blocked, and to leave.
const ALLOWED_WHEN_BLOCKED = new Set(['/api/auth/me', '/api/auth/logout']);

/**
 * The session contour: a `pb_session` cookie, never an API key. State-changing
 * requests from another origin are refused (cross-site request forgery).
 */
export function sessionAuth(auth: AuthService, publicOrigin: string) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (STATE_CHANGING.has(request.method)) refuseCrossSite(request, publicOrigin);
    const token = request.cookies[SESSION_COOKIE];
    const user = token ? await auth.userForSession(token) : undefined;
    if (user) {
      request.sessionUser = user;
      request.actor = { userId: user.id, isAdmin: user.is_admin, via: { kind: 'session' } };
    }
    if (request.routeOptions.config.public) return;
    if (!user) {
      const sentKey = /^Bearer\s+pb_/i.test(request.headers.authorization ?? '');
      throw unauthenticated(
        sentKey
          ? 'API keys are not accepted on /api/*: this contour needs a session (POST /api/auth/login). Use /api/v1 with a key.'
          : 'Sign-in required: POST /api/auth/login first.',
      );
    }
    if (user.is_blocked && !ALLOWED_WHEN_BLOCKED.has(request.routeOptions.url ?? '')) {
      throw forbidden('This account is blocked.');
    }
  };
}

export function requireAdmin(request: FastifyRequest) {
  if (!request.actor?.isAdmin) throw forbidden('Administrators only.');
}

/**
 * A browser names the page that sent a request in `Origin` (on every POST, PUT,
 * PATCH and DELETE, same-origin ones included) and, when it omits `Origin`,
 * still says `Sec-Fetch-Site`. Either one pointing to another site is a forged
 * request. The service's own origin is PUBLIC_URL's, or the one the request was
 * sent to (`Host`), so the app works under `localhost` as well as `127.0.0.1`.
 * A request with neither header comes from no browser (curl, a script), and so
 * carries no victim's cookie.
 */
function refuseCrossSite(request: FastifyRequest, publicOrigin: string) {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (origin === publicOrigin || hostOf(origin) === request.headers.host) return;
    throw forbidden(`Cross-origin request refused: Origin ${origin} is not ${publicOrigin}.`);
  }
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    throw forbidden(`Cross-origin request refused: Sec-Fetch-Site is ${site}.`);
  }
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
