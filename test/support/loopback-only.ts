/**
 * The network off except loopback: every test file runs with this set up
 * (vitest.config.ts), so a test that would reach past 127.0.0.1 fails at once
 * instead of depending on the machine's network.
 */
import net from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

export class OutsideLoopbackError extends Error {
  constructor(host: string) {
    super(`Tests reach 127.0.0.1 only; this one tried ${host}.`);
    this.name = 'OutsideLoopbackError';
  }
}

/** The host a `Socket#connect` call aims at; undefined for a Unix socket or a pipe. */
function hostOf(args: unknown[]): string | undefined {
  const [first, second] = args;
  if (Array.isArray(first)) return hostOf(first as unknown[]);
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: string; path?: string };
    return options.path !== undefined ? undefined : (options.host ?? 'localhost');
  }
  if (typeof first === 'string' && Number.isNaN(Number(first))) return undefined;
  return typeof second === 'string' ? second : 'localhost';
}

export function allowLoopbackOnly(): void {
  const connect = net.Socket.prototype.connect;
  const guarded = function (this: net.Socket, ...args: unknown[]) {
    const host = hostOf(args);
    // `.test` names (RFC 6761) never resolve in public DNS: the provider tests give them their own resolver.
    if (host !== undefined && !LOOPBACK.has(host.replace(/^\[|\]$/g, '')) && !host.endsWith('.test'))
      throw new OutsideLoopbackError(host);
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  };
  net.Socket.prototype.connect = guarded;
}

allowLoopbackOnly();
