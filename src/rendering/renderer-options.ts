export interface RendererOptions {
  /** Longest template accepted, in characters. */
  parseLimit?: number;
  /** Longest render of one block, in milliseconds. */
  renderLimit?: number;
  /** liquidjs allocation budget per block render, in its units (characters of strings built, items of arrays and ranges). */
  memoryLimit?: number;
  /** Most items of one range, `(a..b)`, checked before it is built. */
  rangeLimit?: number;
  /** Longest HTML accepted from one block, and for a whole page, in characters. */
  outputLimit?: number;
  /** How many parsed templates (one per revision) are kept. */
  cacheSize?: number;
  /** How many bytes of rendered instance HTML (and keys) are kept, two a character (0: none). */
  outputCacheSize?: number;
}

export const DEFAULT_RENDERER_OPTIONS: Required<RendererOptions> = {
  parseLimit: 256 * 1024,
  renderLimit: 1000,
  memoryLimit: 64 * 1024 * 1024,
  rangeLimit: 100_000,
  // 2 Mi characters: a 51-byte template made a page of 15.7 M, answered to MCP twice over (31 MB) and read
  // whole by every preview. A long article with its markup is a few hundred thousand.
  outputLimit: 2 * 1024 * 1024,
  cacheSize: 500,
  outputCacheSize: 8 * 1024 * 1024,
};
