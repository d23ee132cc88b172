import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from '../../src/db/prepared.js';
import { startApp, type TestApp } from '../support/app.js';
import { newUser } from '../support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('a prepared query', () => {
  it('runs its one compiled SQL with each call’s parameters, keeping the constants it was built with', async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const db = t.app.database.db;
    const byEmail = prepared(db, 2, (email: string, minId: number) =>
      db
        .selectFrom('users')
        .select(['id', 'email'])
        .where('email', '=', email)
        .where('id', '>=', minId)
        .where('is_blocked', '=', false as never),
    );
    expect(await byEmail(a.email, 0)).toEqual([{ id: a.id, email: a.email }]);
    expect(await byEmail(b.email, 0)).toEqual([{ id: b.id, email: b.email }]);
    expect(await byEmail(a.email, a.id + 1)).toEqual([]);
    expect(await byEmail('nobody@example.test', 0)).toEqual([]);
  });
});
