import { describe, expect, it } from 'vitest';
import { outlineOf } from '../../src/shared/html-outline.js';
import { inputSchema, toRequest } from '../../src/mcp/tool-request.js';
import { TOOL_ROUTES } from '../../src/mcp/tools.js';

describe('MCP tools', () => {
  it('have unique names and input schemas that merge the route’s parts without a clash', () => {
    expect(new Set(TOOL_ROUTES.map((r) => r.name)).size).toBe(TOOL_ROUTES.length);
    for (const route of TOOL_ROUTES) expect(() => inputSchema(route), route.name).not.toThrow();
  });

  it('put path parameters in the path, query parameters in the query and the rest in the body', () => {
    const route = TOOL_ROUTES.find((r) => r.name === 'update_block_values')!;
    expect(toRequest(route, { pageId: 3, pbId: 7, placeholder_values: { title: 'x' } })).toEqual({
      method: 'PUT',
      path: '/pages/3/blocks/7',
      body: { placeholder_values: { title: 'x' } },
    });
    const list = TOOL_ROUTES.find((r) => r.name === 'list_blocks')!;
    expect(toRequest(list, { role: 'layout', limit: 5 })).toEqual({
      method: 'GET',
      path: '/blocks?role=layout&limit=5',
      body: undefined,
    });
  });

  it('send a non-scalar path or query argument as JSON, so the refusal shows what was sent', () => {
    const list = TOOL_ROUTES.find((r) => r.name === 'list_blocks')!;
    expect(toRequest(list, { role: { kind: 'layout' } }).path).toBe('/blocks?role=%7B%22kind%22%3A%22layout%22%7D');
    const route = TOOL_ROUTES.find((r) => r.name === 'update_block_values')!;
    expect(toRequest(route, { pageId: [3], pbId: 7 }).path).toBe('/pages/%5B3%5D/blocks/7');
  });
});

describe('outlineOf', () => {
  it('keeps headings, list items, images and text; drops scripts and styles', () => {
    const html =
      '<style>h1{}</style><h1>Hi &amp; welcome</h1><p>Some <b>text</b></p><ul><li>One</li><li>Two</li></ul><img alt="Cat"><script>x()</script>';
    expect(outlineOf(html)).toBe('# Hi & welcome\nSome text\n- One\n- Two\n[image: Cat]');
  });
});
