import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { fieldMessage } from '../../words/field-messages.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';

/*
 * A block's values are refused in sentences about the field's label, and the
 * web app's form says the same words before sending (one module says them:
 * words/field-messages.ts). A required text is required on both: `""`
 * is refused as a missing value is.
 *
 * The form here is rjsf's own Ajv validator with its messages worded by
 * fieldMessage, as a localizer (ajv-i18n's way): web/test/schema-validator.test.ts
 * holds the app's validator to exactly that, error for error.
 */
const form = customizeValidator({}, (errors) => {
  // rjsf quotes the names it hands a localizer ('title'), for its own replacement by titles: read as sent.
  const bare = (name: unknown) => (typeof name === 'string' ? name.replace(/^'(.*)'$/, '$1') : name);
  for (const error of errors ?? [])
    error.message = fieldMessage({
      ...error,
      params: { ...error.params, missingProperty: bare(error.params.missingProperty) },
    });
});
let t: TestApp;
let user: TestUser;
let site: { id: number };
let block: { id: number };
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  block = await createBlock(t, user, {
    name: 'Banner',
    template: '<h1>{{ heading }}</h1><p>{{ heading_text }}</p>',
    schema_content: [
      { name: 'heading', type: 'string', label: 'Heading', required: true, max_length: 60 },
      { name: 'heading_text', type: 'text', required: true },
      { name: 'count', type: 'integer', label: 'How many', min: 1 },
      { name: 'link', type: 'url', label: 'Link' },
    ],
  });
});
afterAll(() => t.close());

const createPage = (values: Record<string, unknown>) =>
  t.call('POST', '/api/v1/pages', {
    key: user.key,
    body: { name: 'Home', site_id: site.id, blocks: [{ block_id: block.id, placeholder_values: values }] },
  });

/** What the web app's form says of the same values, by field path (`heading`, `count`). */
async function formSays(values: Record<string, unknown>) {
  const r = await t.call('GET', `/api/v1/blocks/${block.id}/placeholder-schema`, { key: user.key });
  expect(r.status).toBe(200);
  const { errors } = form.validateFormData(values, r.body.schema as RJSFSchema);
  return Object.fromEntries(errors.map((e) => [String(e.property).replace(/^\./, ''), e.message]));
}

describe('the words of a refused value', () => {
  it('refuses an empty required text at its exact path, as a missing one', async () => {
    const r = await createPage({ heading: '', heading_text: '' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { path: 'blocks[0].placeholder_values.heading', message: 'Heading is required.', code: 'blank' },
      { path: 'blocks[0].placeholder_values.heading_text', message: 'Heading text is required.', code: 'blank' },
    ]);
    const missing = await createPage({});
    expect(missing.body.errors).toEqual([
      { path: 'blocks[0].placeholder_values.heading', message: 'Heading is required.', code: 'required' },
      { path: 'blocks[0].placeholder_values.heading_text', message: 'Heading text is required.', code: 'required' },
    ]);
    // The form's words for the same values.
    expect(await formSays({ heading: '', heading_text: '' })).toEqual({
      heading: 'Heading is required.',
      heading_text: 'Heading text is required.',
    });
    expect(await formSays({})).toEqual({
      heading: 'Heading is required.',
      heading_text: 'Heading text is required.',
    });
  });

  it('says what is wrong about the field by its label, in the words of the form', async () => {
    const values = { heading: 'x'.repeat(61), heading_text: 'Hi', count: 0, link: 'javascript:alert(1)' };
    const r = await createPage(values);
    expect(r.status).toBe(400);
    const server = Object.fromEntries(
      (r.body.errors as { path: string; message: string }[]).map((e) => [
        e.path.replace('blocks[0].placeholder_values.', ''),
        e.message,
      ]),
    );
    expect(server).toEqual({
      heading: 'Heading is too long: at most 60 characters.',
      count: 'How many is too small: at least 1.',
      link: 'Link must be a web address (http or https), a mailto: or tel: link, or a path on the site.',
    });
    expect(await formSays(values)).toEqual(server);
  });

  it('says the same of one instance’s values (PUT …/blocks/{pbId})', async () => {
    const page = await createPage({ heading: 'Hello', heading_text: 'There' });
    expect(page.status).toBe(201);
    const pbId = (page.body.blocks as { id: number }[])[0]!.id;
    const r = await t.call('PUT', `/api/v1/pages/${page.body.id}/blocks/${pbId}`, {
      key: user.key,
      body: { placeholder_values: { heading: '', heading_text: 'There' } },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { path: 'placeholder_values.heading', message: 'Heading is required.', code: 'blank' },
    ]);
  });
});
