/**
 * The service's Standard Webhooks signer against the scheme's published test
 * vector and against the `standardwebhooks` package (sign and verify), so a
 * receiver's library accepts what the service sends.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningKey, secretOf, signature, signedHeaders, verifies } from '../../src/modules/webhooks/signing.js';

// The vector of the Standard Webhooks specification and its libraries' tests.
const VECTOR = {
  key: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('webhook signing', () => {
  it('gives the published vector', () => {
    expect(signature(VECTOR.key, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it('agrees with the standardwebhooks package, both ways', () => {
    const key = newSigningKey();
    const at = new Date();
    const body = JSON.stringify({ type: 'page.published', data: { page_id: 1, name: 'Crème brûlée' } });
    const headers = signedHeaders(key, 'msg_1', at, body);
    const library = new Webhook(secretOf(key));
    expect(library.verify(body, headers)).toMatchObject({ type: 'page.published' });
    expect(headers['webhook-signature']).toBe(library.sign('msg_1', at, body));
    const timestamp = Number(headers['webhook-timestamp']);
    expect(verifies(key, 'msg_1', timestamp, body, `v1,bogus ${headers['webhook-signature']}`)).toBe(true);
    expect(verifies(key, 'msg_1', timestamp, `${body} `, headers['webhook-signature']!)).toBe(false);
    expect(() => library.verify(`${body} `, headers)).toThrow();
  });

  it('makes a new 32-byte key each time, shown as whsec_', () => {
    const [a, b] = [newSigningKey(), newSigningKey()];
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64')).toHaveLength(32);
    expect(secretOf(a)).toBe(`whsec_${a}`);
  });
});
