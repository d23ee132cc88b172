import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';

// The placeholder schema names each field's widget, so that any client (not only the web app) can draw the form.

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await startApp();
  owner = await newUser(t);
});
afterAll(() => t.close());

describe('GET /blocks/{id}/placeholder-schema: x-widget', () => {
  it('names the widget of every field, inside lists and groups too', async () => {
    const block = await createBlock(t, owner, {
      name: 'Widgets',
      schema_content: [
        { name: 'heading', type: 'string', label: 'Heading' },
        { name: 'body', type: 'text', label: 'Text' },
        { name: 'story', type: 'richtext' },
        { name: 'photo', type: 'image' },
        { name: 'accent', type: 'color' },
        {
          name: 'events',
          type: 'array',
          label: 'Events',
          items: { type: 'object', label: 'Event', fields: [{ name: 'when', type: 'date' }] },
        },
      ],
    });
    const answer = await t.call('GET', `/api/v1/blocks/${block.id}/placeholder-schema`, { key: owner.key });
    expect(answer.status).toBe(200);
    const properties = answer.body.schema.properties;
    expect(properties.heading).toMatchObject({ type: 'string', title: 'Heading', 'x-widget': 'input' });
    expect(properties.body).toMatchObject({ type: 'string', title: 'Text', 'x-widget': 'textarea' });
    expect(properties.story).toMatchObject({ contentMediaType: 'text/html', 'x-widget': 'richtext' });
    expect(properties.photo['x-widget']).toBe('image');
    expect(properties.accent['x-widget']).toBe('color');
    expect(properties.events).toMatchObject({ 'x-widget': 'list', items: { title: 'Event', 'x-widget': 'group' } });
    expect(properties.events.items.properties.when).toMatchObject({ format: 'date', 'x-widget': 'date' });
  });
});
