import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, generateApiTypes } from '../../scripts/api-types.js';

// The web app's client is typed by a committed file generated from /api/docs.json;
// a route change must regenerate it (and the type check then checks the app against it).
describe('the web app client types', () => {
  it(`match the routes: run \`npm run gen:api\` when this fails (${API_TYPES_FILE})`, async () => {
    const committed = await readFile(API_TYPES_FILE, 'utf8');
    expect(await generateApiTypes()).toBe(committed);
    // Builds the app and runs openapi-typescript and Prettier: slow on a loaded machine.
  }, 180_000);
});
