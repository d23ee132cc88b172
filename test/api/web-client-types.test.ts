import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, generateApiTypes } from '../../scripts/api-types.js';
import { FIELD_TYPES, MAX_FIELD_DEPTH } from '../../src/modules/blocks/schema/field-vocabulary.js';
import { fieldNestingMax_depthValues, fieldTypeValues } from '../../web/src/api/schema.gen.js';

// The web app's client is typed by a committed file generated from /api/docs.json;
// a route change must regenerate it (and the type check then checks the app against it).
describe('the web app client types', () => {
  it(`match the routes: run \`npm run gen:api\` when this fails (${API_TYPES_FILE})`, async () => {
    const committed = await readFile(API_TYPES_FILE, 'utf8');
    expect(await generateApiTypes()).toBe(committed);
    // Builds the app and runs openapi-typescript and Prettier: slow on a loaded machine.
  }, 180_000);

  // The block editor offers these (web/src/screens/block-editor/field-types.ts).
  it("carry the service's field types and nesting limit as values", () => {
    expect(fieldTypeValues).toEqual(FIELD_TYPES);
    expect(fieldNestingMax_depthValues).toEqual([MAX_FIELD_DEPTH]);
  });
});
