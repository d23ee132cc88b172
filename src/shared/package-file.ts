import { readFileSync } from 'node:fs';

/**
 * A file of the package (package.json, docs/api.md), read from the running
 * code: one level above dist/ (the bundle) or src/<area>/ (sources).
 */
export function readPackageFile(path: string): string | undefined {
  for (const root of ['../', '../../']) {
    try {
      const text = readFileSync(new URL(`${root}${path}`, import.meta.url), 'utf8');
      if (existsAsPackageRoot(root)) return text;
    } catch {
      // not there: try the next place
    }
  }
  return undefined;
}

function existsAsPackageRoot(root: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(new URL(`${root}package.json`, import.meta.url), 'utf8')) as {
      name?: string;
    };
    return manifest.name === 'pageblocks';
  } catch {
    return false;
  }
}

/** The service's version, from its package.json. */
export function packageVersion(): string {
  const text = readPackageFile('package.json');
  return (text && (JSON.parse(text) as { version?: string }).version) || 'unknown';
}
