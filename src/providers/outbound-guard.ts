/**
 * The outbound guard: a provider URL is only called
 * when it is http(s) and the address connected to is a public unicast one.
 * Loopback, private, link-local (cloud metadata at 169.254.169.254 included),
 * unspecified, CGNAT, multicast, reserved and documentation ranges are
 * refused, and so are the IPv6 forms that carry an IPv4 address inside
 * (mapped, compatible, NAT64, 6to4, Teredo), unless `PROVIDER_ALLOW_PRIVATE=1`.
 * `ipaddr.js` classifies; only its `unicast` passes.
 *
 * When the settings are saved (`assertPublicUrl`) the host is resolved and
 * checked, for a 400 on `base_url`. At call time the check is made where it
 * counts: in the lookup of the connection itself (`outboundAgent`), so the
 * address checked is the address connected to, and a DNS answer that changes
 * in between (rebinding) cannot slip past.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';
import { cjsExports } from '../shared/cjs-exports.js';
import { fieldError } from '../shared/errors.js';

/** Host name → every address it resolves to. */
export type HostLookup = (host: string) => Promise<string[]>;

export interface GuardOptions {
  allowPrivate: boolean;
  /** The system resolver (`dns.lookup`, all addresses) when absent. */
  lookup?: HostLookup;
}

export type GuardDecision =
  | {
      allowed: true;
      url: URL;
      /** What the host resolved to; empty when not resolved (allowPrivate). */ addresses: string[];
    }
  | { allowed: false; /** Safe to show: names no resolved address. */ reason: string };

const INTERNAL =
  'base_url must not point to a loopback, private, link-local or otherwise internal address' +
  ' (for a local trial, start the service with PROVIDER_ALLOW_PRIVATE=1)';

/** True when an outbound call must not reach this address. Anything that is not an IP address counts as refused. */
export function isBlockedAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // Node's strict parser first: no shorthand forms (`127.1`) reach ipaddr.js, which accepts some.
  if (isIP(plain) === 0) return true;
  // process(): an IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const parsed = ipaddr.process(plain);
  if (parsed.range() !== 'unicast') return true;
  // IPv4-compatible (::a.b.c.d, deprecated): ipaddr.js calls it unicast, some stacks still route it to the IPv4 inside.
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0);
}

const systemLookup: HostLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** Scheme, credentials and an IP-literal host: what can be judged without resolving anything. */
function checkShape(raw: string, options: GuardOptions): GuardDecision & { host?: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: false, reason: 'base_url must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { allowed: false, reason: 'base_url must use http or https' };
  }
  if (url.username || url.password) {
    return {
      allowed: false,
      reason: 'base_url must not contain credentials; the token is sent in the Authorization header',
    };
  }
  if (options.allowPrivate) return { allowed: true, url, addresses: [] };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal is connected to as it is, without a lookup: it is judged here.
  if (isIP(host))
    return isBlockedAddress(host) ? { allowed: false, reason: INTERNAL } : { allowed: true, url, addresses: [host] };
  return { allowed: true, url, addresses: [], host };
}

/** Settings time: the decision, the host resolved and every address checked. Never throws. */
export async function checkOutboundUrl(raw: string, options: GuardOptions): Promise<GuardDecision> {
  const shape = checkShape(raw, options);
  if (!shape.allowed || shape.host === undefined) return shape;
  const { host, url } = shape;
  let addresses: string[];
  try {
    addresses = await (options.lookup ?? systemLookup)(host);
  } catch {
    return { allowed: false, reason: `the host ${host} of base_url could not be resolved` };
  }
  if (addresses.length === 0) return { allowed: false, reason: `the host ${host} of base_url could not be resolved` };
  // One refused address is enough: the connection may pick any of them.
  if (addresses.some(isBlockedAddress)) return { allowed: false, reason: INTERNAL };
  return { allowed: true, url, addresses };
}

/**
 * Call time: what can be judged before connecting (no DNS: the connection's
 * own lookup, in `outboundAgent`, checks the addresses it is about to use).
 */
export function checkOutboundTarget(raw: string, options: GuardOptions): GuardDecision {
  return checkShape(raw, options);
}

/** The boolean form of the settings-time decision. */
export async function isOutboundUrlAllowed(raw: string, options: GuardOptions): Promise<boolean> {
  return (await checkOutboundUrl(raw, options)).allowed;
}

/** Settings time: resolves to the parsed URL, or throws a validation error on `base_url`. */
export async function assertPublicUrl(raw: string, options: GuardOptions): Promise<URL> {
  const decision = await checkOutboundUrl(raw, options);
  if (!decision.allowed) throw fieldError('base_url', decision.reason);
  return decision.url;
}

/** The connection's lookup refused what the host resolved to. */
export class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor() {
    super(INTERNAL);
  }
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that resolves with the guard's resolver and refuses
 * the connection when any address is internal: the one check, made on the
 * addresses the socket is about to connect to.
 */
export function guardedLookup(options: GuardOptions) {
  const resolve = options.lookup ?? systemLookup;
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (resolved) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : undefined;
        const addresses = resolved
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family !== 0 && (family === undefined || a.family === family));
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        } else if (!options.allowPrivate && resolved.some(isBlockedAddress)) {
          callback(new OutboundRefusedError(), '');
        } else if (lookupOptions.all) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0]!.address, addresses[0]!.family);
        }
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    );
  };
}

// One agent per resolver and setting, kept for the process: its sockets are reused between calls.
const agents = new WeakMap<HostLookup, Map<boolean, Agent>>();

/**
 * The undici dispatcher for provider calls: every connection goes through `guardedLookup`.
 * undici is loaded at the first call, not at every start (bench B5).
 */
export async function outboundAgent(options: GuardOptions): Promise<Agent> {
  const resolver = options.lookup ?? systemLookup;
  let byMode = agents.get(resolver);
  if (!byMode) agents.set(resolver, (byMode = new Map<boolean, Agent>()));
  let agent = byMode.get(options.allowPrivate);
  if (!agent) {
    const { Agent } = cjsExports(await import('undici'));
    agent = byMode.get(options.allowPrivate);
    if (agent) return agent;
    agent = new Agent({ connect: { lookup: guardedLookup({ ...options, lookup: resolver }) } });
    byMode.set(options.allowPrivate, agent);
  }
  return agent;
}
