import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/** A small catalog so that a newcomer can bind live data at once. */
const ARTICLE = {
  type: 'object',
  required: ['id', 'title', 'slug', 'url'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    slug: { type: 'string' },
    url: { type: 'string' },
    excerpt: { type: 'string' },
    image: { type: ['string', 'null'] },
    published_at: { type: 'string', format: 'date-time' },
  },
};

const RESULT_TYPES = [
  {
    id: 'article_list',
    title: 'List of articles',
    schema_json: { type: 'array', items: ARTICLE },
    stub: [
      {
        id: 101,
        title: 'How we redesigned our homepage',
        slug: 'homepage-redesign',
        url: '/articles/homepage-redesign',
        excerpt: 'Six weeks, three prototypes and one big decision.',
        image: 'https://picsum.photos/seed/pb1/800/450',
        published_at: '2026-01-12T09:00:00Z',
      },
      {
        id: 102,
        title: 'Ten blocks every landing page needs',
        slug: 'ten-blocks',
        url: '/articles/ten-blocks',
        excerpt: 'From the hero to the footer, what converts.',
        image: 'https://picsum.photos/seed/pb2/800/450',
        published_at: '2026-01-08T14:30:00Z',
      },
      {
        id: 103,
        title: 'Writing for the web in 2026',
        slug: 'writing-for-the-web',
        url: '/articles/writing-for-the-web',
        excerpt: 'Short sentences. Clear headings. No jargon.',
        image: null,
        published_at: '2026-01-02T08:15:00Z',
      },
    ],
  },
  {
    id: 'rubric_list',
    title: 'List of rubrics',
    schema_json: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'title'],
        properties: { id: { type: 'integer' }, title: { type: 'string' }, url: { type: 'string' } },
      },
    },
    stub: [
      { id: 1, title: 'News', url: '/news' },
      { id: 2, title: 'Guides', url: '/guides' },
    ],
  },
];

const LIMIT = {
  type: 'integer',
  minimum: 1,
  maximum: 50,
  default: 3,
  description: 'how many items: the number the template shows',
};
const SORT = {
  type: 'string',
  enum: ['published_at_desc', 'published_at_asc', 'title_asc'],
  default: 'published_at_desc',
  description: 'in which order',
};

const SOURCES = [
  {
    id: 'articles.latest',
    title: 'Latest articles',
    description: 'The newest articles of the site, optionally filtered by a text.',
    result_type_id: 'article_list',
    // additionalProperties false: an invented params key is an error, not silently ignored.
    params_schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        limit: LIMIT,
        sort: SORT,
        filter: { type: 'string', description: 'a text the articles must contain' },
      },
    },
  },
  {
    id: 'articles.by_rubric',
    title: 'Articles of a rubric',
    description: 'Articles of one rubric (category) of the site.',
    result_type_id: 'article_list',
    params_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['category_id'],
      properties: {
        category_id: { type: 'integer', minimum: 1, description: 'the rubric id, from the provider' },
        limit: LIMIT,
        sort: SORT,
      },
    },
  },
  {
    id: 'rubrics.all',
    title: 'All rubrics',
    description: 'The rubrics (categories) of the site, for menus.',
    result_type_id: 'rubric_list',
    params_schema: { type: 'object', additionalProperties: false, properties: { limit: { ...LIMIT, default: 10 } } },
  },
];

export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  const now = new Date().toISOString();
  for (const t of RESULT_TYPES) {
    await db
      .insertInto('data_result_types')
      .values({
        id: t.id,
        title: t.title,
        schema_json: JSON.stringify(t.schema_json),
        stub: JSON.stringify(t.stub),
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  for (const s of SOURCES) {
    await db
      .insertInto('data_sources')
      .values({
        id: s.id,
        title: s.title,
        description: s.description,
        result_type_id: s.result_type_id,
        params_schema: JSON.stringify(s.params_schema),
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}
