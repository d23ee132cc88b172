/**
 * The main workflow of an integration, through a client generated from the
 * served `/api/v1/docs.json` (openapi-typescript types, openapi-fetch calls),
 * with no casts: if the document and the service disagree, this file stops
 * type-checking or a step below fails.
 */
import createClient from 'openapi-fetch';
import type { paths } from './v1-schema.gen.js';

export interface Workflow {
  siteName: string;
  pageId: number;
  previewHtml: string;
  publication: { is_published: boolean; external_id: string | null; external_slug: string | null };
}

/** The answer's data, or an Error naming the step, its status and the error body. */
function ok<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

export async function runWorkflow(
  baseUrl: string,
  key: string,
  provider: { url: string; token: string },
  fetch: typeof globalThis.fetch = globalThis.fetch,
): Promise<Workflow> {
  const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` }, fetch });

  // A site of one's own, set up by the key alone, then found in the list.
  const created = ok('create a site', await api.POST('/api/v1/sites', { body: { name: 'Client site' } }));
  const sites = ok('list sites', await api.GET('/api/v1/sites', { params: { query: { limit: 50, offset: 0 } } }));
  const site = sites.data.find((candidate) => candidate.id === created.id);
  if (!site) throw new Error(`list sites: site ${created.id} is not listed`);

  // A block with a data slot, by words; then the contract of its values.
  const found = ok(
    'search blocks',
    await api.GET('/api/v1/search/blocks', { params: { query: { q: 'latest articles', limit: 10, offset: 0 } } }),
  );
  const block = found.data.find((candidate) => candidate.name === 'Starter: latest articles');
  if (!block) throw new Error(`search blocks: no starter block among ${found.data.map((b) => b.name).join(', ')}`);
  const contract = ok(
    'read the placeholder schema',
    await api.GET('/api/v1/blocks/{id}/placeholder-schema', { params: { path: { id: block.id } } }),
  );
  const slot = contract.binding_slots[0];
  const source = slot?.allowed_sources[0];
  if (!slot || !source) throw new Error('read the placeholder schema: the block has no binding slot');

  // A page with the block bound to its source, then its preview.
  const page = ok(
    'create a page',
    await api.POST('/api/v1/pages', {
      body: {
        name: 'Client page',
        site_id: site.id,
        slug: 'client-page',
        blocks: [
          {
            block_id: block.id,
            placeholder_values: contract.example,
            bindings: { [slot.name]: { source, params: { limit: 3 } } },
          },
        ],
      },
    }),
  );
  const previewHtml = ok(
    'preview the page',
    await api.GET('/api/v1/pages/{id}/preview', { params: { path: { id: page.id } }, parseAs: 'text' }),
  );

  // Publication to the site's provider, and its status.
  ok(
    'set the provider',
    await api.PUT('/api/v1/sites/{id}/provider/fourcms', {
      params: { path: { id: site.id } },
      body: { base_url: provider.url, token: provider.token },
    }),
  );
  ok(
    'publish',
    await api.POST('/api/v1/pages/{id}/publish', { params: { path: { id: page.id } }, body: { rubric_ids: [1] } }),
  );
  const publication = ok(
    'read the publication status',
    await api.GET('/api/v1/pages/{id}/publication', { params: { path: { id: page.id } } }),
  );
  return { siteName: site.name, pageId: page.id, previewHtml, publication };
}
