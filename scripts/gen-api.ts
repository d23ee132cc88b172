import { writeFile } from 'node:fs/promises';
import { API_TYPES_TARGETS, generateApiTypes } from './api-types.js';

for (const target of API_TYPES_TARGETS) {
  await writeFile(target.file, await generateApiTypes(target));
  process.stdout.write(`wrote ${target.file}\n`);
}
