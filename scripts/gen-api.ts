import { writeFile } from 'node:fs/promises';
import { API_TYPES_FILE, generateApiTypes } from './api-types.js';

await writeFile(API_TYPES_FILE, await generateApiTypes());
process.stdout.write(`wrote ${API_TYPES_FILE}\n`);
