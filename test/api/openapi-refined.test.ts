import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/shared/ajv.js';
import { operationIdOf } from '../../src/http/openapi-refine.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
});
afterAll(() => t.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
function operations(document: any): Array<{ method: string; path: string; operation: any }> {
  return Object.entries<any>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] })),
  );
}

describe.each(['/api/v1', '/api'])('the OpenAPI document of %s', (prefix) => {
  let document: any;
  beforeAll(async () => {
    document = (await t.call('GET', `${prefix}/docs.json`)).body;
  });

  it('names every operation once, in camelCase, and says what it is and when to use it', () => {
    const all = operations(document);
    const ids = all.map(({ operation }) => operation.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    const bare = all
      .filter(
        ({ operation }) => !operation.summary?.trim() || !/^(Use it|Not offered)/.test(operation.description ?? ''),
      )
      .map(({ method, path }) => `${method} ${path}`);
    expect(bare).toEqual([]);
  });

  it('gives every documented operation its own stable name (a client method), not one derived from the path', () => {
    const derived = operations(document)
      .filter(({ method, path, operation }) => operation.operationId === operationIdOf(method, path, prefix))
      .map(({ method, path }) => `${method} ${path}`);
    expect(derived).toEqual([]);
    expect(document.paths[`${prefix}/pages`].post.operationId).toBe('createPage');
    expect(document.paths[`${prefix}/blocks/{id}/placeholder-schema`].get.operationId).toBe('getPlaceholderSchema');
  });

  it('names the shared shapes and refers to them, the lists and the errors among them', () => {
    const names = Object.keys(document.components.schemas);
    for (const name of [
      'Block',
      'Revision',
      'Page',
      'PageBlock',
      'Site',
      'Error',
      'FieldError',
      'SiteList',
      'PageList',
    ])
      expect(names).toContain(name);
    const json = (path: string, method: string, status: string) =>
      document.paths[`${prefix}${path}`][method].responses[status].content['application/json'].schema;
    expect(json('/sites', 'get', '200')).toEqual({ $ref: '#/components/schemas/SiteList' });
    expect(json('/pages/{id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/Page' });
    expect(document.components.schemas.Page.properties.blocks.items).toEqual({
      $ref: '#/components/schemas/PageBlock',
    });
  });

  /** Every media type of a request body and of an answer, with its place in the document. */
  const mediaOf = (document: any) =>
    operations(document).flatMap(({ method, path, operation }) => [
      ...Object.entries<any>(operation.requestBody?.content ?? {}).map(([type, media]) => ({
        media,
        type,
        status: 'body',
        name: `${method} ${path} body`,
        at: ['paths', path, method, 'requestBody', 'content', type],
      })),
      ...Object.entries<any>(operation.responses).flatMap(([status, response]) =>
        Object.entries<any>(response.content ?? {}).map(([type, media]) => ({
          media,
          type,
          status,
          name: `${method} ${path} ${status}`,
          at: ['paths', path, method, 'responses', status, 'content', type],
        })),
      ),
    ]);

  it('has examples that fit their own schemas: every media type’s and every named shape’s', () => {
    const ajv = createAjv({ validateSchema: false });
    ajv.addSchema(document, 'doc');
    const pointer = (...segments: string[]) =>
      `doc#/${segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
    const wrong: string[] = [];
    const check = (name: string, at: string[], example: unknown) => {
      const validate = ajv.getSchema(pointer(...at))!;
      if (!validate(example)) wrong.push(`${name}: ${ajv.errorsText(validate.errors)}`);
    };
    let count = 0;
    for (const { media, name, at } of mediaOf(document)) {
      const examples = [
        ...(media.example === undefined ? [] : [media.example]),
        ...Object.values<any>(media.examples ?? {}).map((example) => example.value),
      ];
      for (const example of examples) check(name, [...at, 'schema'], example);
      count += examples.length;
    }
    for (const [name, schema] of Object.entries<any>(document.components.schemas)) {
      for (const example of schema.examples ?? [])
        check(`components.schemas.${name}`, ['components', 'schemas', name], example);
    }
    expect(wrong).toEqual([]);
    expect(count).toBeGreaterThan(operations(document).length);
    const createPage = document.paths[`${prefix}/pages`].post;
    expect(createPage.requestBody.content['application/json'].example.blocks[0].bindings.news.source).toBe(
      'articles.latest',
    );
    expect(createPage.responses['400'].content['application/json'].example.errors[0].path).toBe(
      'blocks[0].placeholder_values.title',
    );
  });

  it('shows an example for every JSON body sent and every JSON success answered, and for every named shape', () => {
    const missing = mediaOf(document)
      .filter(({ type, status }) => type === 'application/json' && (status === 'body' || status.startsWith('2')))
      .filter(({ media }) => media.example === undefined && media.examples === undefined)
      .map(({ name }) => name);
    expect(missing).toEqual([]);
    const bare = Object.entries<any>(document.components.schemas)
      .filter(([, schema]) => !(schema.examples?.length > 0))
      .map(([name]) => name);
    expect(bare).toEqual([]);
  });

  it('names every JSON request body in components.schemas, its example with it', () => {
    const inline = operations(document)
      .filter(({ operation }) => {
        const json = operation.requestBody?.content?.['application/json'];
        return json && !json.schema.$ref?.startsWith('#/components/schemas/');
      })
      .map(({ method, path }) => `${method} ${path}`);
    // The MCP endpoint takes any JSON-RPC message: a protocol's envelope, not a shape of ours.
    expect(inline).toEqual(prefix === '/api/v1' ? [`post ${prefix}/mcp`] : []);
    const createPage = document.paths[`${prefix}/pages`].post.requestBody.content['application/json'];
    expect(createPage.schema).toEqual({ $ref: '#/components/schemas/PageCreateBody' });
    expect(document.components.schemas.PageCreateBody.examples).toEqual([createPage.example]);
    expect(document.components.schemas.PageCreateBody.required).toEqual(['name', 'site_id']);
  });

  it('marks no query parameter with a default as required (limit, offset)', () => {
    const wrong = operations(document).flatMap(({ method, path, operation }) =>
      (operation.parameters ?? [])
        .filter((p: any) => p.in === 'query' && p.schema?.default !== undefined && p.required)
        .map((p: any) => `${method} ${path} ${p.name}`),
    );
    expect(wrong).toEqual([]);
    const sites = document.paths[`${prefix}/sites`].get.parameters;
    expect(sites.find((p: any) => p.name === 'limit')).toMatchObject({ required: false, schema: { default: 50 } });
  });

  it('links the API guide, which the service serves', async () => {
    expect(document.info.description).toContain('docs/api.md');
    expect(document.externalDocs.url).toBe(`${prefix}/docs/guide`);
    const guide = await t.call('GET', `${prefix}/docs/guide`);
    expect(guide.status).toBe(200);
    expect(guide.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(guide.text).toBe(readFileSync('docs/api.md', 'utf8'));
  });
});

describe('what the document says agrees with the service', () => {
  let document: any;
  beforeAll(async () => {
    document = (await t.call('GET', '/api/v1/docs.json')).body;
  });

  it('declares previews as HTML, as they answer', async () => {
    const declared = document.paths['/api/v1/pages/{id}/preview'].get.responses['200'].content;
    expect(Object.keys(declared)).toEqual(['text/html']);
    const site = await newSite(t, user);
    const page = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'P', site_id: site.id, blocks: [] },
    });
    const preview = await t.call('GET', `/api/v1/pages/${page.body.id}/preview`, { key: user.key });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('accepts a null block_type, and the answer fits its own schema', async () => {
    const created = await t.call('POST', '/api/v1/blocks', {
      key: user.key,
      body: { name: 'Plain', block_type: null },
    });
    expect(created.status).toBe(201);
    expect(created.body.block_type).toBeNull();
    const declared = document.components.schemas.Block;
    expect(declared.properties.block_type.enum).toContain(null);
    const ajv = createAjv({ validateSchema: false });
    ajv.addSchema(document, 'doc');
    const validate = ajv.getSchema('doc#/components/schemas/Block')!;
    expect(validate(created.body), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe('operation ids', () => {
  it('of an operation without its own name derive from the method and the path alone', () => {
    expect(operationIdOf('GET', '/api/v1/pages/{id}/blocks', '/api/v1')).toBe('getPagesByIdBlocks');
    expect(operationIdOf('post', '/api/v1/pages/{pageId}/blocks/upgrade-all', '/api/v1')).toBe(
      'postPagesByPageIdBlocksUpgradeAll',
    );
    expect(operationIdOf('get', '/api/v1/data-sources/{id}', '/api/v1')).toBe('getDataSourcesById');
  });
});
