import type { FastifyReply } from 'fastify';
import type { SignedIn } from '../../modules/auth/auth.service.js';
import type { App, HttpDeps } from '../context.js';
import { unauthenticated } from '../../shared/errors.js';
import { LoginBody, RegisterBody, UserEnvelope } from '../schemas/auth.js';
import { errorResponses, NoContent } from '../schemas/common.js';
import { SESSION_COOKIE } from './session-hook.js';

export function authRoutes(app: App, { services, config }: HttpDeps) {
  const secure = config.publicUrl.startsWith('https:');
  const setSession = (reply: FastifyReply, signedIn: SignedIn) =>
    reply.setCookie(SESSION_COOKIE, signedIn.sessionToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      expires: signedIn.expiresAt,
    });

  app.post(
    '/auth/register',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and sign in',
        description:
          'The password must not be only white space, one of the most common passwords, a repeat (`aaaaaaaa`), a ' +
          'sequence (`abcdefgh`, `12345678`) or mostly the name of the service (400 at `password`, saying which). ' +
          'Registrations from one address are limited (429 with Retry-After).',
        security: [],
        body: RegisterBody,
        response: { 201: UserEnvelope, ...errorResponses(400, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const signedIn = await services.auth.register({ ...request.body, address: request.ip });
      setSession(reply, signedIn).status(201);
      return { user: signedIn.user };
    },
  );

  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in',
        description:
          'After a few failures for one account from one address, each next attempt from there must wait twice as long as ' +
          'the last (429 with Retry-After); other addresses are not affected, and a success forgets the failures.',
        security: [],
        body: LoginBody,
        response: { 200: UserEnvelope, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const signedIn = await services.auth.login({ ...request.body, address: request.ip });
      setSession(reply, signedIn);
      return { user: signedIn.user };
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out; the session ends on the server',
        response: { 204: NoContent, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await services.auth.logout(token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' }).status(204);
    },
  );

  app.get(
    '/auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: UserEnvelope, ...errorResponses(401) },
      },
    },
    async (request) => {
      if (!request.sessionUser) throw unauthenticated('Sign-in required.');
      return { user: request.sessionUser };
    },
  );
}
