/**
 * JSON written by the database (the dialect's JsonText, a page read's
 * `blocks`) must be JSON.stringify's bytes: strings escaped alike, stored
 * values compact and their numbers as JavaScript writes them. On the database
 * of the run: SQLite, or PostgreSQL with DATABASE_URL.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

// Every character PostgreSQL's text can hold below 128 (not NUL), and some beyond.
const EVERY_CHARACTER =
  Array.from({ length: 127 }, (_, i) => String.fromCharCode(i + 1)).join('') + 'é€😀\u2028\u2029\ufeff\u007f';

describe("the database's JSON", () => {
  it('quotes a text as JSON.stringify does, character for character', async () => {
    const { db, dialect } = t.app.database;
    const texts = [EVERY_CHARACTER, '', 'plain', '"quoted" \\ back'];
    for (const text of texts) {
      const [row] = await db
        .selectFrom(sql`(select cast(${text} as text) as v)`.as('t'))
        .select(dialect.jsonText.quoted('t.v').as('q'))
        .execute();
      expect(row!.q).toBe(JSON.stringify(text));
    }
  });

  it('answers any stored JSON value in JSON.stringify’s form, numbers and nesting included', async () => {
    const { db, dialect } = t.app.database;
    const json = dialect.types.json === 'jsonb' ? sql.raw('jsonb') : sql.raw('text');
    // PostgreSQL's jsonb holds no NUL in a string.
    const values = fc.sample(
      fc.jsonValue().filter((v) => !JSON.stringify(v).includes('\\u0000')),
      { numRuns: 300, seed: 20261127 },
    );
    const texts = [
      ...values.map((v) => JSON.stringify(v)),
      '{"big":1e+21,"small":1e-7,"half":1.50,"long":12345678901234567891,"key":{"":1,"0":2}}',
      '{"s":"a, b: c","e":"\\u0001\\n\\"","nested":[[],{},[{"k":[1,2]}]]}',
    ];
    for (const text of texts) {
      const [row] = await db
        .selectFrom(sql`(select cast(${text} as ${json}) as v)`.as('t'))
        .select(dialect.jsonText.stored('t.v').as('s'))
        .execute();
      const stored = row!.s as string;
      // jsonb keeps keys in an order of its own: the form wanted is that of the value it answers.
      const answered = dialect.compactJson ? dialect.compactJson(stored) : stored;
      expect(answered).toBe(dialect.compactJson ? JSON.stringify(JSON.parse(stored)) : text);
      expect(JSON.parse(answered)).toEqual(JSON.parse(text));
    }
  });
});
