/**
 * What a new password must not be (NIST SP 800-63B, 5.1.1.2): only white
 * space, one of the passwords most often found in breaches (the 49k-word
 * list of zxcvbn-ts, compared without case), repetitive or sequential
 * characters, or the service's own name. Length is checked by the schema.
 */
let common: Promise<Set<string>> | undefined;

/**
 * The rule in one sentence, as the sign-up form says it (web/src/auth/password-rule.ts holds the same
 * words; a unit test compares them).
 */
export const PASSWORD_RULE =
  'Use at least 8 characters, and not a common password, a repeat (aaaaaaaa), a sequence (abcdefgh, 12345678) or the name of this service.';

const SERVICE_NAME = 'pageblocks';

// Loaded at the first registration, not at start: 380 kB that most processes never need.
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then((module) => {
    // Bundled, a CommonJS package imported with import() has its exports under `default` only.
    const { dictionary } = (module as { default?: { dictionary: typeof module.dictionary } }).default ?? module;
    return new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }));

/** One short group said again and again (`aaaaaaaa`, `abababab`, `abcabcabc`), or two characters at most. */
function isRepeat(chars: string[]): boolean {
  if (new Set(chars).size <= 2) return true;
  for (let period = 1; period <= chars.length / 2; period++) {
    if (chars.every((char, i) => char === chars[i % period])) return true;
  }
  return false;
}

/** Runs of neighbouring characters (`abcd`, `4321`): code points one apart, in one direction. */
function runs(chars: string[]): number {
  let count = 1;
  let step = 0;
  for (let i = 1; i < chars.length; i++) {
    const diff = chars[i]!.codePointAt(0)! - chars[i - 1]!.codePointAt(0)!;
    if (Math.abs(diff) === 1 && (step === 0 || diff === step)) {
      step = diff;
      continue;
    }
    count++;
    step = 0;
  }
  return count;
}

/** Why the password is refused, in words for its owner; undefined when it is acceptable. */
export async function passwordProblem(password: string): Promise<string | undefined> {
  if (!/\S/.test(password)) return 'The password must not be only white space.';
  const lower = password.toLowerCase();
  const chars = [...lower];
  if (isRepeat(chars)) return `This password repeats one character or a short group. ${PASSWORD_RULE}`;
  // One or two runs: `abcdefgh`, `12345678`, `87654321`, `1234abcd`.
  if (runs(chars) <= 2) return `This password is a sequence. ${PASSWORD_RULE}`;
  if (lower.replaceAll(SERVICE_NAME, '').length < 8 && lower.includes(SERVICE_NAME)) {
    return `This password is mostly the name of this service. ${PASSWORD_RULE}`;
  }
  if ((await commonPasswords()).has(lower)) {
    return `This password is one of the most common ones and is easily guessed. ${PASSWORD_RULE}`;
  }
  return undefined;
}
