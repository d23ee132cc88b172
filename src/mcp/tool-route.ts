import type { TSchema } from 'typebox';

/**
 * One MCP tool = one `/api/v1` route. Its input schema is made from that
 * route's own TypeBox schemas (path parameters, query and body side by side),
 * so the tool and the REST API can never disagree about what they accept.
 */
export interface ToolRoute {
  name: string;
  /** For an agent: what it does, when to use it, what to call before. */
  description: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under `/api/v1`, with `:name` parameters. */
  path: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /**
   * `preview`: the answer is HTML, returned with a readable outline. `hits`: a
   * list of blocks, each cut to what choosing one needs (no template, CSS, JS
   * or fields: get_block and get_placeholder_schema read them).
   */
  answer?: 'json' | 'preview' | 'hits';
  /**
   * The route honours `If-Match`: the tool takes `expected_version`, sent as
   * that header; `block` names the block's `edit_version`, `page` the page's `version`.
   */
  expects?: 'page' | 'block';
}
