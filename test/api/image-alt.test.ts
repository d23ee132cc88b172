import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';

/*
 * An image's alt text is kept with the image: a value is `{src, alt}`, or,
 * as every value stored before alt text, the address alone. Both render:
 * `{{ photo }}` and `{{ photo.src }}` are the address, `{{ photo.alt }}` the
 * words (empty for an address alone), escaped as every value is, at the top
 * level and inside a list's items.
 */
let t: TestApp;
let user: TestUser;
let site: { id: number };
let block: { id: number };
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  block = await createBlock(t, user, {
    name: 'Picture',
    template:
      '<img class="a" src="{{ photo.src }}" alt="{{ photo.alt }}"><img class="b" src="{{ photo }}">' +
      '{% for c in cards %}<img class="c" src="{{ c.pic }}" alt="{{ c.pic.alt }}">{% endfor %}',
    schema_content: [
      { name: 'photo', type: 'image', label: 'Photo', required: true },
      { name: 'cards', type: 'array', items: { type: 'object', fields: [{ name: 'pic', type: 'image' }] } },
    ],
  });
});
afterAll(() => t.close());

const createPage = (values: Record<string, unknown>) =>
  t.call('POST', '/api/v1/pages', {
    key: user.key,
    body: { name: 'Home', site_id: site.id, blocks: [{ block_id: block.id, placeholder_values: values }] },
  });

async function previewOf(values: Record<string, unknown>): Promise<string> {
  const page = await createPage(values);
  expect(page.status).toBe(201);
  const r = await t.call('GET', `/api/v1/pages/${page.body.id}/preview`, { key: user.key });
  expect(r.status).toBe(200);
  return r.text;
}

describe('image alt text', () => {
  it('renders {src, alt} with its alt text escaped, and the address where the template writes the value itself', async () => {
    const html = await previewOf({
      photo: { src: '/uploads/cat.png', alt: 'A "cat" <b>& co</b>' },
      cards: [{ pic: { src: 'https://example.com/d.png', alt: 'A dog' } }, { pic: 'https://example.com/e.png' }],
    });
    expect(html).toContain('<img class="a" src="/uploads/cat.png" alt="A &#34;cat&#34; &lt;b&gt;&amp; co&lt;/b&gt;">');
    expect(html).toContain('<img class="b" src="/uploads/cat.png">');
    expect(html).toContain('<img class="c" src="https://example.com/d.png" alt="A dog">');
    expect(html).toContain('<img class="c" src="https://example.com/e.png" alt="">');
  });

  it('still takes and renders an address alone, as stored before alt text', async () => {
    const html = await previewOf({ photo: 'https://example.com/a.png' });
    expect(html).toContain('<img class="a" src="https://example.com/a.png" alt="">');
    expect(html).toContain('<img class="b" src="https://example.com/a.png">');
  });

  it('renders a block preview with its alt text too', async () => {
    const r = await t.call('POST', `/api/v1/blocks/${block.id}/preview`, {
      key: user.key,
      body: { placeholder_values: { photo: { src: '/x.png', alt: 'Seen' } } },
    });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<img class="a" src="/x.png" alt="Seen">');
  });

  it('refuses an unsafe address, a missing address and a wrong shape at their paths, in words', async () => {
    const r = await createPage({
      photo: { src: 'javascript:alert(1)', alt: 'x' },
      cards: [{ pic: { alt: 'no address' } }, { pic: 42 }, { pic: { src: '/a.png', alt: 'x'.repeat(1001) } }],
    });
    expect(r.status).toBe(400);
    const at = Object.fromEntries(
      (r.body.errors as { path: string; message: string }[]).map((e) => [
        e.path.replace(/^blocks\[0\]\.placeholder_values\./, ''),
        e.message,
      ]),
    );
    expect(at).toMatchObject({
      'photo.src': 'Photo must be a web address (http or https) or a path on the site.',
      'cards[0].pic.src': 'Pic is required.',
      'cards[1].pic': 'Pic must be an image address, or an image with its alt text.',
      'cards[2].pic.alt': 'Alt text of Pic is too long: at most 1000 characters.',
    });
    const plain = await createPage({ photo: 'javascript:alert(1)' });
    expect(plain.status).toBe(400);
    expect(plain.body.errors[0]).toMatchObject({
      path: 'blocks[0].placeholder_values.photo',
      message: 'Photo must be a web address (http or https) or a path on the site.',
    });
  });

  it('names both shapes in the placeholder schema', async () => {
    const r = await t.call('GET', `/api/v1/blocks/${block.id}/placeholder-schema`, { key: user.key });
    const photo = r.body.schema.properties.photo;
    expect(photo).toMatchObject({ type: ['string', 'object'], 'x-widget': 'image', required: ['src'] });
    expect(photo.properties.alt).toMatchObject({ type: 'string', maxLength: 1000, title: 'Alt text of Photo' });
  });
});
