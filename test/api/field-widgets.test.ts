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

describe('richtext values are stored sanitized, by publication’s policy', () => {
  const dirty = '<p>Hi <b>there</b><script>alert(1)</script><img src="https://x.test/a.png" onerror="alert(2)"></p>';
  const clean = '<p>Hi <b>there</b><img src="https://x.test/a.png" /></p>';

  it('on a page’s creation (in lists and groups too) and on a change of values', async () => {
    const site = await t.call('POST', '/api/v1/sites', { key: owner.key, body: { name: 'Rich' } });
    const block = await createBlock(t, owner, {
      name: 'Rich',
      template: '<div>{{ story }}</div>{% for s in slides %}<div>{{ s.text }}</div>{% endfor %}',
      schema_content: [
        { name: 'story', type: 'richtext' },
        { name: 'title', type: 'string' },
        {
          name: 'slides',
          type: 'array',
          items: { type: 'object', fields: [{ name: 'text', type: 'richtext' }] },
        },
      ],
    });
    const created = await t.call('POST', '/api/v1/pages', {
      key: owner.key,
      body: {
        name: 'Rich',
        site_id: site.body.id,
        blocks: [
          {
            block_id: block.id,
            placeholder_values: { story: dirty, title: 'a <b> & c', slides: [{ text: dirty }, { text: 'plain' }] },
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    const stored = await t.call('GET', `/api/v1/pages/${created.body.id}?with_blocks=1`, { key: owner.key });
    // A plain string field is text, not HTML: left as sent.
    expect(stored.body.blocks[0].placeholder_values).toEqual({
      story: clean,
      title: 'a <b> & c',
      slides: [{ text: clean }, { text: 'plain' }],
    });

    const instance = stored.body.blocks[0].id;
    const put = await t.call('PUT', `/api/v1/pages/${created.body.id}/blocks/${instance}`, {
      key: owner.key,
      body: { placeholder_values: { story: '<p onclick="x()">Again<iframe src="https://evil.test"></iframe></p>' } },
    });
    expect(put.status).toBe(200);
    const again = await t.call('GET', `/api/v1/pages/${created.body.id}?with_blocks=1`, { key: owner.key });
    expect(again.body.blocks[0].placeholder_values).toEqual({ story: '<p>Again</p>' });
  });
});
