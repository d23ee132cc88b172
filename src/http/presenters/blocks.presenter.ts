import type { LoadedBlock, Revision } from '../../modules/blocks/blocks.js';

export const uploadPath = (key: string) => `/uploads/${key}`;

/** A revision as the API shows it: its template is `template_content`. */
export const presentRevision = (r: Revision) => ({
  id: r.id,
  version: r.version,
  template_content: r.template,
  css: r.css,
  js: r.js,
  schema_content: r.schema_content,
  changelog: r.changelog,
  created_at: r.created_at,
});

/** A block as the API shows it. */
export function presentBlock(block: LoadedBlock) {
  const r = block.revision;
  return {
    id: block.id,
    name: block.name,
    description: block.description,
    docs: block.docs,
    block_type: block.block_type,
    kind: block.kind,
    scope: block.scope,
    tags: block.tags,
    version: r ? r.version : null,
    current_revision: r ? presentRevision(r) : null,
    is_favorite: block.is_favorite,
    is_deprecated: block.is_deprecated,
    fork_count: block.fork_count,
    forked_from_id: block.forked_from_id,
    cover_url: block.cover_key ? uploadPath(block.cover_key) : null,
    edit_version: block.edit_version,
    created_at: block.created_at,
    updated_at: block.updated_at,
  };
}

export const presentBlocks = <T extends { data: LoadedBlock[] }>(page: T) => ({
  ...page,
  data: page.data.map(presentBlock),
});
