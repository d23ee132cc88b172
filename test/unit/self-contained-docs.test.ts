import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

// The project's documents stand on their own: nothing they say sends a reader
// to a file outside the repository, and every relative link resolves inside it.
const ROOT = resolve(import.meta.dirname, '../..');
const OUTSIDE = /\.\.\/shared\/|shared\/spec|\bapi-v1\.md|\bcontract\.md|env-notes|docs\/auth\.md|style\.md/;
// In sources `../../shared/` is the project's own src/shared: only the names count there.
const OUTSIDE_IN_SOURCES = /shared\/spec|\bapi-v1\.md|\bcontract\.md|env-notes|docs\/auth\.md|style\.md/;

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

const markdown = [
  'README.md',
  ...files('docs', (name) => name.endsWith('.md')),
  ...files('src', (name) => name.endsWith('.md')),
];
const sources = [
  ...files('src', (name) => name.endsWith('.ts')),
  ...files('test', (name) => name.endsWith('.ts')),
].filter((path) => path !== 'test/unit/self-contained-docs.test.ts');

describe('documents point to nothing outside the repository', () => {
  it.each(markdown)('%s', (path) => {
    const text = readFileSync(join(ROOT, path), 'utf8');
    expect(text).not.toMatch(OUTSIDE);
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:\/\/(127\.0\.0\.1|localhost)|#)/.test(target!)) continue;
      expect(target, `${path} links ${target}`).not.toMatch(/^[a-z]+:/);
      const file = resolve(dirname(join(ROOT, path)), target!.split('#')[0]!);
      expect(relative(ROOT, file).startsWith('..'), `${path} links ${target} outside`).toBe(false);
      expect(existsSync(file), `${path} links ${target}, which does not exist`).toBe(true);
    }
  });

  it('nor do comments and texts in the sources', () => {
    const offenders = sources.filter((path) => OUTSIDE_IN_SOURCES.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(offenders).toEqual([]);
  });

  describe('nor the served OpenAPI documents', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp();
    });
    afterAll(() => t.close());

    it.each(['/api/v1/docs.json', '/api/docs.json'])('%s', async (path) => {
      const document = await t.call('GET', path);
      expect(document.status).toBe(200);
      expect(document.text).not.toMatch(OUTSIDE);
    });
  });
});
