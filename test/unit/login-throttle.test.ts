import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/modules/auth/login-throttle.js';

describe('LoginThrottle', () => {
  let now = 0;
  const clock = { now: () => new Date(now) };
  const limits = { perEmail: 3, perAddress: 5, windowMs: 60_000 };

  it('allows attempts until the email limit, then asks to wait until the oldest failure leaves the window', () => {
    now = 0;
    const throttle = new LoginThrottle(clock, limits);
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfter('a@x', '1.1.1.1')).toBe(0);
      now += 10_000;
      throttle.recordFailure('a@x', '1.1.1.1');
    }
    expect(throttle.retryAfter('a@x', '1.1.1.1')).toBe(40); // first failure at 10 s, window 60 s, now 30 s
    expect(throttle.retryAfter('b@x', '2.2.2.2')).toBe(0);
    now += 41_000;
    expect(throttle.retryAfter('a@x', '1.1.1.1')).toBe(0);
  });

  it('limits one address across many emails', () => {
    now = 0;
    const throttle = new LoginThrottle(clock, limits);
    for (let i = 0; i < 5; i++) throttle.recordFailure(`user${i}@x`, '9.9.9.9');
    expect(throttle.retryAfter('fresh@x', '9.9.9.9')).toBeGreaterThan(0);
    expect(throttle.retryAfter('fresh@x', '8.8.8.8')).toBe(0);
  });

  it('forgets the failures of an email after a successful login', () => {
    now = 0;
    const throttle = new LoginThrottle(clock, limits);
    for (let i = 0; i < 2; i++) throttle.recordFailure('a@x', `10.0.0.${i}`);
    throttle.recordSuccess('a@x');
    throttle.recordFailure('a@x', '10.0.0.9');
    expect(throttle.retryAfter('a@x', '10.0.0.7')).toBe(0);
  });
});
