import { randomBytes } from 'node:crypto';
import { buildApp, type AppOverrides } from '../../src/app.js';
import type { Actor } from '../../src/shared/actor.js';
import type { Services } from '../../src/services.js';
import { testSetup } from './app.js';

export interface ServiceHarness {
  services: Services;
  /** A new account, as the actor a service call takes. */
  newActor(): Promise<Actor>;
  close(): Promise<void>;
}

/**
 * The services as the composition root wires them, over the run's real
 * database (SQLite, or PostgreSQL with DATABASE_URL), called without HTTP:
 * a service's rules are tested where they live.
 */
export async function openServices(overrides?: AppOverrides): Promise<ServiceHarness> {
  const setup = await testSetup({ overrides });
  const app = await buildApp(setup.config, setup.overrides);
  return {
    services: app.services,
    newActor: async () => {
      const email = `service-${randomBytes(4).toString('hex')}@example.test`;
      const { user } = await app.services.auth.register({ email, password: 'password-123', address: '127.0.0.1' });
      return { userId: user.id, isAdmin: false };
    },
    close: async () => {
      await app.close();
      await setup.cleanup();
    },
  };
}
