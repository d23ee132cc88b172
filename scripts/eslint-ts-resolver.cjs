/**
 * An import resolver (eslint-module-utils interface 2) for eslint-plugin-boundaries:
 * our sources import `./x.js` under NodeNext resolution while the file on disk
 * is `./x.ts`; the web app imports `./x` for `./x.ts` or `./x.tsx`. Relative
 * specifiers resolve to the .ts (.tsx) file when the .js one is absent; anything else (packages, node: built-ins) is external and left alone.
 */
const { existsSync } = require('node:fs');
const { dirname, resolve } = require('node:path');

exports.interfaceVersion = 2;

exports.resolve = (source, file) => {
  if (!source.startsWith('.')) return { found: true, path: null };
  const target = resolve(dirname(file), source);
  const candidates = [
    target,
    target.replace(/\.js$/, '.ts'),
    `${target}.ts`,
    `${target}.tsx`,
    resolve(target, 'index.ts'),
    resolve(target, 'index.tsx'),
  ];
  for (const candidate of candidates) {
    if (existsSync(candidate)) return { found: true, path: candidate };
  }
  return { found: false };
};
