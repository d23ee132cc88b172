import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactJsonbText } from '../../../src/db/dialects/jsonb-text.js';

/** A value as PostgreSQL writes jsonb: a space after each ':' and ',' outside strings (keys in the order given). */
function asJsonbWrites(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(asJsonbWrites).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${asJsonbWrites(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

describe("jsonb's text in JSON.stringify's form", () => {
  it('is the value as JSON.stringify writes it, for any value JavaScript wrote', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(compactJsonbText(asJsonbWrites(value))).toBe(JSON.stringify(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps separators and spaces inside strings, escaped quotes and backslashes included', () => {
    const value = { 'a, b': 'x: y, z', q: 'say \\"hi\\", ok', t: ['\\\\', '", "', ': '] };
    expect(compactJsonbText(asJsonbWrites(value))).toBe(JSON.stringify(value));
  });

  it('writes again a number JavaScript writes otherwise (stored by plain SQL)', () => {
    expect(compactJsonbText('{"a": 1000000000000000000000, "b": 0.0000001}')).toBe('{"a":1e+21,"b":1e-7}');
    expect(compactJsonbText('[1.50, 2.0, 12345678901234567891]')).toBe('[1.5,2,12345678901234567000]');
    expect(compactJsonbText('[0.000001, 0.5, 10]')).toBe('[0.000001,0.5,10]');
  });

  it('puts integer keys first, as JavaScript lists them (jsonb orders keys by length)', () => {
    expect(compactJsonbText('{"": 1, "a": 2, "10": 3, "2": 4}')).toBe('{"2":4,"10":3,"":1,"a":2}');
  });

  // A pattern that backtracked over a string's characters would not finish (or overflow its stack) here.
  it('reads a string of megabytes', () => {
    const long = { body: 'a\\"b, c: '.repeat(200_000) };
    expect(compactJsonbText(asJsonbWrites(long))).toBe(JSON.stringify(long));
  });
});
