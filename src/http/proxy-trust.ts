import proxyAddr from '@fastify/proxy-addr';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';

/** Is the address, `hop` steps from the socket (0: the socket's peer), a proxy whose X-Forwarded-For we believe? */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * `TRUST_PROXY` as Fastify's trust function. A hop count is a function of our
 * own: Fastify 5 reads a number as "trust no one", since it cannot check the
 * peer; with a count, the service must be reachable only through the proxies.
 */
export function proxyTrust(setting: Config['trustProxy']): ProxyTrust | false {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

// Headers a proxy adds. A client may send them too: then it only refuses itself what is kept for local clients.
const FORWARDING = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via'] as const;

/**
 * Did the request come through a proxy: from a trusted one, or carrying a
 * forwarding header (a proxy we were not told about, in front of a service
 * that believes no one)? Such a request is never "local", whatever address
 * the header or the socket shows.
 */
export function cameThroughProxy(request: FastifyRequest, trust: ProxyTrust | false): boolean {
  if (FORWARDING.some((name) => request.headers[name] !== undefined)) return true;
  const peer = request.socket.remoteAddress;
  return trust !== false && peer !== undefined && trust(peer, 0);
}

/**
 * Behind a proxy that `TRUST_PROXY` does not name, every client has the
 * proxy's address: one client's failed logins slow everyone's. Said once in
 * the log, at the first forwarded request, so that the operator sets it.
 */
export function warnUntrustedProxy(app: {
  addHook(name: 'onRequest', hook: (request: FastifyRequest, reply: unknown, done: () => void) => void): unknown;
}) {
  let warned = false;
  app.addHook('onRequest', (request, _reply, done) => {
    if (!warned && request.headers['x-forwarded-for'] !== undefined) {
      warned = true;
      request.log.warn(
        'a request carries X-Forwarded-For but TRUST_PROXY is unset: every client behind that proxy counts as one address for the login and registration throttles; set TRUST_PROXY to the proxy (see the README, "Behind a reverse proxy")',
      );
    }
    done();
  });
}
