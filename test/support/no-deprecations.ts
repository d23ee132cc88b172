/**
 * A deprecation warning fails the test that caused it: each is an API that the
 * next major version of a dependency removes (pg 9 refuses a second query on a
 * busy connection, which a transaction's parallel reads used to make).
 */
import { afterEach, expect } from 'vitest';

const seen: string[] = [];
process.on('warning', (warning) => {
  if (warning.name === 'DeprecationWarning') seen.push(`${warning.message}\n${warning.stack ?? ''}`);
});

afterEach(async () => {
  // Node emits warnings on the next tick: let the test's last ones arrive.
  await new Promise((resolve) => setImmediate(resolve));
  expect(seen.splice(0), 'deprecation warnings during the test').toEqual([]);
});
