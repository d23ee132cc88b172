/**
 * After `vite build`: every text asset of the web app written beside itself
 * as brotli (`.br`) and gzip (`.gz`), at the strongest settings, once per
 * build. The service sends the variant the browser accepts
 * (@fastify/static's `preCompressed`), so no request pays for compression
 * and a cold page editor travels at about a quarter of its size.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = process.argv[2] ?? 'web/dist';
const TEXT = /\.(?:js|css|html|svg|json|txt|map)$/;
// Below this a compressed copy saves less than a packet.
const MIN_BYTES = 1024;

let before = 0;
let after = 0;
for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.test(entry.name)) continue;
  const path = join(entry.parentPath, entry.name);
  const body = await readFile(path);
  if (body.length < MIN_BYTES) continue;
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  await writeFile(`${path}.br`, br);
  await writeFile(`${path}.gz`, gzipSync(body, { level: 9 }));
  before += body.length;
  after += br.length;
}
console.log(`precompressed ${dir}: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB (brotli)`);
