/**
 * No import cycles in the service or the web app, type-only imports included:
 * a cycle makes the order in which modules load decide what a module sees
 * (an import read before it is set), and it ties the files of a cycle into
 * one piece that cannot be read, tested or moved apart.
 */
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../support/import-graph.js';

describe('No import cycles', () => {
  it.each(['src', 'web/src'])('in %s, type-only imports included', (root) => {
    const graph = importGraph(root);
    expect(graph.size).toBeGreaterThan(50);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a cycle, a type-only one and a file importing itself', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });
});
