import { describe, expect, it } from 'vitest';
import { PASSWORD_RULE, passwordProblem } from '../../src/modules/auth/password-rules.js';
import { PASSWORD_RULE as FORM_RULE } from '../../web/src/auth/password-rule.js';

describe('the password rule', () => {
  it('is said in the same sentence by the service and the sign-up form', () => {
    expect(FORM_RULE).toBe(PASSWORD_RULE);
  });

  it.each([
    'aaaaaaaa',
    'abababab',
    'abcabcabc',
    'aaaabbbb',
    'abcdefgh',
    'hgfedcba',
    '12345678',
    '87654321',
    '1234abcd',
  ])('refuses the repeat or sequence %j', async (password) => {
    expect(await passwordProblem(password)).toMatch(/^This password (repeats|is a sequence)/);
  });

  it.each(['pageblocks', 'PageBlocks', 'pageblocks2026', 'Pageblocks!!'])(
    'refuses the service name in %j',
    async (p) => {
      expect(await passwordProblem(p)).toMatch(/^This password is mostly the name of this service\./);
    },
  );

  it.each(['my-pageblocks-secret-phrase', 'password-123', 'correct horse battery', 'abc-defg-hij', 'Summer-2026!'])(
    'accepts %j',
    async (password) => {
      expect(await passwordProblem(password)).toBeUndefined();
    },
  );
});
