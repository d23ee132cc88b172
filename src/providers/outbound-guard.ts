/**
 * The outbound guard (contract.md section 1): a provider URL is only called
 * when it is http(s) and every address its host resolves to is public.
 * Loopback, private, link-local (cloud metadata at 169.254.169.254 included),
 * unspecified, CGNAT, multicast and reserved ranges are refused, in their
 * IPv4-mapped IPv6 forms too, unless `PROVIDER_ALLOW_PRIVATE=1`.
 *
 * It runs twice: when the settings are saved (`assertPublicUrl`, a 400 on
 * `base_url`) and again right before every outbound call (`checkOutboundUrl`),
 * because what a name resolves to can change in between.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
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

const refused = new BlockList();
// IPv4
refused.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network"; 0.0.0.0 reaches the local host on Linux
refused.addSubnet('10.0.0.0', 8, 'ipv4'); // private
refused.addSubnet('100.64.0.0', 10, 'ipv4'); // CGNAT
refused.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
refused.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, cloud metadata
refused.addSubnet('172.16.0.0', 12, 'ipv4'); // private
refused.addSubnet('192.168.0.0', 16, 'ipv4'); // private
refused.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
refused.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, broadcast
// IPv6
refused.addAddress('::', 'ipv6'); // unspecified
refused.addAddress('::1', 'ipv6'); // loopback
refused.addSubnet('fc00::', 7, 'ipv6'); // unique local (private)
refused.addSubnet('fe80::', 10, 'ipv6'); // link-local
refused.addSubnet('fec0::', 10, 'ipv6'); // site-local (deprecated, still internal)
refused.addSubnet('ff00::', 8, 'ipv6'); // multicast

const MAPPED_V4 = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i;
const MAPPED_V4_HEX = /^::ffff:(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** The canonical compressed form of an IPv6 address (`0:0:0:0:0:ffff:7f00:1` → `::ffff:7f00:1`). */
const canonicalIpv6 = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1);

/** `::ffff:7f00:1` and `::ffff:127.0.0.1` → `127.0.0.1`; anything else as it is. */
function unmapIpv4(address: string): string {
  if (isIP(address) !== 6) return address;
  address = canonicalIpv6(address);
  const dotted = MAPPED_V4.exec(address);
  if (dotted?.[1]) return dotted[1];
  const hex = MAPPED_V4_HEX.exec(address);
  if (hex?.[1] && hex[2]) {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return address;
}

/** True when an outbound call must not reach this address. Anything that is not an IP address counts as refused. */
export function isBlockedAddress(address: string): boolean {
  const plain = unmapIpv4(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  const family = isIP(plain);
  if (family === 0) return true;
  return refused.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

const systemLookup: HostLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The decision, with a reason fit for an error message. Never throws. */
export async function checkOutboundUrl(raw: string, options: GuardOptions): Promise<GuardDecision> {
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
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch {
      return { allowed: false, reason: `the host ${host} of base_url could not be resolved` };
    }
    if (addresses.length === 0) return { allowed: false, reason: `the host ${host} of base_url could not be resolved` };
  }
  // One refused address is enough: the connection may pick any of them.
  if (addresses.some(isBlockedAddress)) {
    return {
      allowed: false,
      reason: 'base_url must not point to a loopback, private, link-local or otherwise internal address',
    };
  }
  return { allowed: true, url, addresses };
}

/** The boolean form, for a last check right before an outbound call. */
export async function isOutboundUrlAllowed(raw: string, options: GuardOptions): Promise<boolean> {
  return (await checkOutboundUrl(raw, options)).allowed;
}

/** Settings time: resolves to the parsed URL, or throws a validation error on `base_url`. */
export async function assertPublicUrl(raw: string, options: GuardOptions): Promise<URL> {
  const decision = await checkOutboundUrl(raw, options);
  if (!decision.allowed) throw fieldError('base_url', decision.reason);
  return decision.url;
}
