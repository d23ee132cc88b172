/**
 * What a new password must not be (NIST SP 800-63B, 5.1.1.2): only white
 * space, or one of the passwords most often found in breaches (the 49k-word
 * list of zxcvbn-ts, compared without case). Length is checked by the schema.
 */
let common: Promise<Set<string>> | undefined;

// Loaded at the first registration, not at start: 380 kB that most processes never need.
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then((module) => {
    // Bundled, a CommonJS package imported with import() has its exports under `default` only.
    const { dictionary } = (module as { default?: { dictionary: typeof module.dictionary } }).default ?? module;
    return new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }));

/** Why the password is refused, in words for its owner; undefined when it is acceptable. */
export async function passwordProblem(password: string): Promise<string | undefined> {
  if (!/\S/.test(password)) return 'The password must not be only white space.';
  if ((await commonPasswords()).has(password.toLowerCase())) {
    return 'This password is one of the most common ones and is easily guessed: choose another.';
  }
  return undefined;
}
