/**
 * The quota's last check is one step: uploads recorded at the same moment
 * (here twelve, on the database's own connections) never pass it together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { uploadsRepository } from '../../src/db/repositories/uploads.repository.js';
import { testSetup } from '../support/app.js';

let app: BuiltApp;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const setup = await testSetup();
  app = await buildApp(setup.config, setup.overrides);
  cleanup = setup.cleanup;
});
afterAll(async () => {
  await app.close();
  await cleanup();
});

const newUserId = async () => {
  const email = `quota-${Math.random().toString(16).slice(2)}@example.test`;
  const { user } = await app.services.auth.register({ email, password: 'password-123', address: '127.0.0.1' });
  return user.id;
};

describe('the uploads repository', () => {
  it('records uploads asked together only up to the quota, and counts what it recorded', async () => {
    const uploads = uploadsRepository(app.database);
    const userId = await newUserId();
    const now = new Date().toISOString();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        uploads.record({ key: `sites/1/race-${userId}-${i}.png`, userId, bytes: 1000, quotaBytes: 5000, now }),
      ),
    );
    expect(results.filter((r) => r.recorded)).toHaveLength(5);
    for (const refused of results.filter((r) => !r.recorded)) expect(refused).toEqual({ recorded: false, used: 5000 });
    expect(await uploads.used(userId)).toBe(5000);
    expect(await uploads.used(await newUserId())).toBe(0);

    // A replaced upload is not counted against the one that replaces it, and goes with it.
    const kept = results.findIndex((r) => r.recorded);
    const replaces = `sites/1/race-${userId}-${kept}.png`;
    const bigger = { key: `covers/new-${userId}.png`, userId, bytes: 2000, quotaBytes: 5000, now };
    expect(await uploads.record(bigger)).toEqual({ recorded: false, used: 5000 });
    expect(await uploads.record({ ...bigger, bytes: 1000, replaces })).toEqual({ recorded: true });
    expect(await uploads.used(userId)).toBe(5000);
    expect(await uploads.used(userId, bigger.key)).toBe(4000);
  });
});
