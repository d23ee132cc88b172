import { describe, expect, it } from 'vitest';
import { createAjv, linearRegExp } from '../../src/shared/ajv.js';

describe('user patterns on a linear-time engine', () => {
  it('answers a catastrophic pattern on a long input (backtracking would not finish)', () => {
    const evil = linearRegExp('^(a+)+$');
    expect(evil.test(`${'a'.repeat(200_000)}!`)).toBe(false);
    expect(evil.test('a'.repeat(200_000))).toBe(true);
  });

  it('refuses what only a backtracking engine can run', () => {
    for (const pattern of ['(a)\\1', '(?=a)', '(?<!a)b', 'a{1001}']) expect(() => linearRegExp(pattern)).toThrow();
  });

  it('is the engine of createAjv, and keeps the patterns of one schema apart', () => {
    const validate = createAjv().compile({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, word: { type: 'string', pattern: '^(a+)+$' } },
    });
    expect(validate({ code: 'ABC', word: 'aaaa' })).toBe(true);
    expect(validate({ code: 'aaaa', word: 'ABC' })).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(['/code', '/word']);
    expect(validate({ word: `${'a'.repeat(100_000)}!` })).toBe(false);
    expect(() => createAjv().compile({ type: 'string', pattern: '(a)\\1' })).toThrow();
  });
});
