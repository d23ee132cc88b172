import type { FastifyInstance, FastifyRequest, RawServerDefault, FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/config.js';
import type { Actor } from '../shared/actor.js';
import type { User } from '../modules/auth/auth.js';
import { unauthenticated } from '../shared/errors.js';
import type { Services } from '../services.js';
import type { PageReads } from './page-reads.js';
import type { RouteTable } from './route-table.js';

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteTable;
    /** Compiles every route's schemas now (they are compiled at first use). */
    compileSchemas(): void;
  }
  interface FastifyRequest {
    /** Who is calling; set by the auth hook of the contour. */
    actor: Actor | null;
    /** The signed-in user of the session contour. */
    sessionUser: User | null;
    /** The public prefix of the API key that authenticated the request (logged; never the key). */
    keyPrefix: string | null;
  }
  interface FastifyContextConfig {
    /** The route needs no session (login, register). */
    public?: boolean;
    /** The route reads a multipart file field of this name (documented, not schema-validated). */
    multipartFile?: string;
    /** The route's successes carry an `ETag` (the object's version): documented on each 2xx (`if-match.ts`). */
    etag?: boolean;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface HttpDeps {
  services: Services;
  config: Config;
  /** Runs `work` so that nothing it writes is kept (`?dry_run=1`). */
  dryRun: <T>(work: () => Promise<T>) => Promise<T>;
  /** Page reads, answered from what is kept while its version holds (`page-reads.ts`). */
  pageReads: PageReads;
}

/** `?dry_run=1` on a route that declares it: the real call's answer, nothing written. */
export function maybeDry<T>(
  request: { query: { dry_run?: number } },
  deps: Pick<HttpDeps, 'dryRun'>,
  work: () => Promise<T>,
): Promise<T> {
  return request.query.dry_run === 1 ? deps.dryRun(work) : work();
}

/** The caller of an authenticated route (the auth hook guarantees it). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated('Authentication required.');
  return request.actor;
}
