/**
 * The import graph of a source tree as TypeScript reads it: every `import`,
 * `import type`, `export ... from` and dynamic `import()` of a relative
 * specifier, resolved to the file on disk (`./x.js` is `./x.ts`). Packages are
 * left out. Used by the test that keeps the tree free of cycles.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const target = resolve(dirname(from), specifier);
  const candidates = [
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.js$/, '.tsx'),
    `${target}.ts`,
    `${target}.tsx`,
    join(target, 'index.ts'),
    target,
  ];
  return candidates.find((candidate) => SOURCE.test(candidate) && existsSync(candidate));
}

/** Each file of `root` (relative to `base`) with the files of the tree it imports. */
export function importGraph(root: string, base = process.cwd()): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of filesUnder(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .flatMap(({ fileName }) => resolveRelative(file, fileName) ?? [])
      .map((path) => relative(base, path));
    graph.set(relative(base, file), [...new Set(targets)]);
  }
  return graph;
}

/** The import cycles of a graph: its strongly connected components of more than one file, or a file importing itself. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative enough for a source tree's depth.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
