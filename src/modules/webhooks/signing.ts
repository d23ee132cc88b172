import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the content
 * signed is `{webhook-id}.{webhook-timestamp}.{body}`, the signature is
 * `v1,` and the base64 HMAC-SHA256 of it under the key's bytes, and the key
 * is shown to its owner as `whsec_` and those bytes in base64. Receivers
 * verify with any Standard Webhooks library (the test does, with the
 * `standardwebhooks` npm package).
 */
const PREFIX = 'whsec_';

/** A new key: 32 random bytes, base64 (what is stored: HMAC needs the key itself). */
export const newSigningKey = (): string => randomBytes(32).toString('base64');

/** The key as its owner sees it once, and as receivers' libraries take it. */
export const secretOf = (key: string): string => `${PREFIX}${key}`;

export function signature(key: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(key, 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a signed delivery, the timestamp in whole seconds. */
export function signedHeaders(key: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(key, id, timestamp, body),
  };
}

/** True when one of the space-separated signatures in `header` is ours (for tests and tools). */
export function verifies(key: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(signature(key, id, timestamp, body));
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
