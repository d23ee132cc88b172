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
    const origin = request.headers.origin;
    if (STATE_CHANGING.has(request.method) && origin !== undefined && origin !== publicOrigin) {
      throw forbidden(`Cross-origin request refused: Origin ${origin} is not ${publicOrigin}.`);
    }
    const token = request.cookies[SESSION_COOKIE];
    const user = token ? await auth.userForSession(token) : undefined;
    if (user) {
      request.sessionUser = user;
      request.actor = { userId: user.id, isAdmin: user.is_admin };
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
