import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * A few global blocks, so that a fresh installation can put a first page
 * together at once: a hero, text, markdown, a list of the latest articles
 * (bound to `articles.latest`) and a two-column layout. They belong to a
 * system account that cannot sign in: no password hash verifies against `!`,
 * and the account is blocked. Administrators change them like any global block.
 */
export const STARTER_OWNER_EMAIL = 'starter-blocks@pageblocks.invalid';

export interface StarterBlock {
  name: string;
  description: string;
  docs: string;
  kind: 'content' | 'layout';
  block_type: 'schema' | 'markdown' | null;
  template: string;
  css: string;
  schema_content: Record<string, unknown>[];
}

export const STARTER_BLOCKS: StarterBlock[] = [
  {
    name: 'Starter: hero',
    description: 'A large heading with a subtitle and one call-to-action button, for the top of a page.',
    docs: 'Set `title`; `subtitle` and the button (`button_label` with `button_url`) are optional. `background` is a hex colour.',
    kind: 'content',
    block_type: 'schema',
    template: [
      '<section class="pb-hero" style="background: {{ background }}">',
      '  <h1>{{ title }}</h1>',
      '  {% if subtitle != blank %}<p class="pb-hero__subtitle">{{ subtitle }}</p>{% endif %}',
      '  {% if button_label != blank and button_url != blank %}<a class="pb-hero__button" href="{{ button_url }}">{{ button_label }}</a>{% endif %}',
      '</section>',
    ].join('\n'),
    css: [
      '.pb-hero { padding: 4rem 1.5rem; color: #fff; text-align: center; }',
      '.pb-hero h1 { margin: 0 0 1rem; font-size: clamp(2rem, 5vw, 3.5rem); }',
      '.pb-hero__subtitle { margin: 0 auto 1.5rem; max-width: 40rem; font-size: 1.25rem; }',
      '.pb-hero__button { display: inline-block; padding: .75rem 1.5rem; border-radius: .5rem; background: #fff; ' +
        'color: #1e293b; font-weight: 600; text-decoration: none; }',
    ].join('\n'),
    schema_content: [
      { name: 'title', type: 'string', label: 'Title', required: true, max_length: 120, default: 'Welcome' },
      { name: 'subtitle', type: 'text', label: 'Subtitle', max_length: 300 },
      { name: 'button_label', type: 'string', label: 'Button label', max_length: 40 },
      { name: 'button_url', type: 'url', label: 'Button link' },
      { name: 'background', type: 'color', label: 'Background colour', default: '#1e3a8a' },
    ],
  },
  {
    name: 'Starter: text',
    description: 'A heading and a few paragraphs of plain text; line breaks are kept.',
    docs: 'Write `body` as plain text: an empty line starts a new paragraph. `heading` is optional.',
    kind: 'content',
    block_type: 'schema',
    template: [
      '<section class="pb-text">',
      '  {% if heading != blank %}<h2>{{ heading }}</h2>{% endif %}',
      '  <div class="pb-text__body">{{ body }}</div>',
      '</section>',
    ].join('\n'),
    css: [
      '.pb-text { max-width: 42rem; margin: 0 auto; padding: 2rem 1.5rem; line-height: 1.6; }',
      '.pb-text__body { white-space: pre-line; }',
    ].join('\n'),
    schema_content: [
      { name: 'heading', type: 'string', label: 'Heading', max_length: 120 },
      { name: 'body', type: 'text', label: 'Text', required: true, default: 'Write your text here.' },
    ],
  },
  {
    name: 'Starter: markdown',
    description: 'An article body written in Markdown (GitHub flavour): headings, lists, links, tables, code.',
    docs: 'The page gives `_markdown`; it is rendered to sanitized HTML.',
    kind: 'content',
    block_type: 'markdown',
    template: '<article class="pb-markdown">{{ _markdown }}</article>',
    css: [
      '.pb-markdown { max-width: 42rem; margin: 0 auto; padding: 2rem 1.5rem; line-height: 1.6; }',
      '.pb-markdown img { max-width: 100%; }',
      '.pb-markdown pre { overflow-x: auto; }',
    ].join('\n'),
    schema_content: [],
  },
  {
    name: 'Starter: latest articles',
    description: 'A list of articles from the site, with links and excerpts; bound to live data.',
    docs: 'The `articles` slot takes `articles.latest` (the newest, `limit` of them) or `articles.by_rubric`. Without a binding it shows the three latest.',
    kind: 'content',
    block_type: 'schema',
    template: [
      '<section class="pb-articles">',
      '  <h2>{{ heading }}</h2>',
      '  <ul>',
      '  {% for article in articles %}',
      '    <li>',
      '      <a href="{{ article.url }}">{{ article.title }}</a>',
      '      {% if article.excerpt %}<p>{{ article.excerpt }}</p>{% endif %}',
      '    </li>',
      '  {% endfor %}',
      '  </ul>',
      '</section>',
    ].join('\n'),
    css: [
      '.pb-articles { max-width: 42rem; margin: 0 auto; padding: 2rem 1.5rem; }',
      '.pb-articles ul { list-style: none; margin: 0; padding: 0; }',
      '.pb-articles li { padding: 1rem 0; border-bottom: 1px solid #e2e8f0; }',
      '.pb-articles a { font-weight: 600; }',
      '.pb-articles p { margin: .25rem 0 0; color: #475569; }',
    ].join('\n'),
    schema_content: [
      { name: 'heading', type: 'string', label: 'Heading', max_length: 120, default: 'Latest articles' },
      {
        name: 'articles',
        type: 'binding',
        label: 'Articles',
        allowed_sources: ['articles.latest', 'articles.by_rubric'],
        result_type: 'article_list',
        default: { source: 'articles.latest', params: { limit: 3 } },
      },
    ],
  },
  {
    name: 'Starter: two columns',
    description: 'A layout that sets the blocks nested in it side by side, two per row; one column on narrow screens.',
    docs: 'Nest blocks into it (`parent_page_block_id`): they fill the columns left to right.',
    kind: 'layout',
    block_type: null,
    template: '<div class="pb-columns">{{ children }}</div>',
    css: [
      '.pb-columns { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 1.5rem; padding: 0 1.5rem; }',
      '@media (max-width: 40rem) { .pb-columns { grid-template-columns: 1fr; } }',
    ].join('\n'),
    schema_content: [],
  },
];

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const now = new Date().toISOString();
  const { id: ownerId } = await db
    .insertInto('users')
    .values({
      email: STARTER_OWNER_EMAIL,
      password_hash: '!',
      is_admin: d.defaults.false,
      is_blocked: d.defaults.true,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  for (const block of STARTER_BLOCKS) {
    const { id: blockId } = await db
      .insertInto('blocks')
      .values({
        owner_id: ownerId,
        scope: 'global',
        kind: block.kind,
        name: block.name,
        description: block.description,
        docs: block.docs,
        block_type: block.block_type,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: revisionId } = await db
      .insertInto('block_revisions')
      .values({
        block_id: blockId,
        major: 1,
        minor: 0,
        template: block.template,
        css: block.css,
        js: '',
        schema_content: JSON.stringify(block.schema_content),
        changelog: 'Starter block.',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sources = [
      ...new Set(block.schema_content.flatMap((field) => (field.allowed_sources as string[] | undefined) ?? [])),
    ];
    if (sources.length > 0) {
      await db
        .insertInto('block_revision_sources')
        .values(sources.map((source_id) => ({ revision_id: revisionId, source_id })))
        .execute();
    }
    await db.updateTable('blocks').set({ current_revision_id: revisionId }).where('id', '=', blockId).execute();
    await d.search.index(db, blockId, { name: block.name, description: block.description, docs: block.docs, tags: '' });
  }
}
