import { WEBHOOK_OPERATIONS } from './webhook-operations.js';

/**
 * What the OpenAPI documents say of each operation beyond its schemas: a
 * stable `operationId` (a generated client's method name, which must not move
 * when a path is renamed), when to use it, and examples. Keyed by method and
 * path without the contour's prefix, so that one entry serves both contours.
 */
import { BLOCK_OPERATIONS } from './operations-blocks.js';
import type { OperationDoc } from './operation-doc.js';

export type { OperationDoc } from './operation-doc.js';

const fieldError = (path: string, message: string, code: string) => ({
  error: 'Block validation failed: see errors[].',
  errors: [{ path, message, code }],
});

export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  // Sites
  'GET /sites': {
    id: 'listSites',
    use: 'Use it first: a page belongs to a site, and its id is the `site_id` of a new page.',
  },
  'POST /sites': {
    id: 'createSite',
    use: 'Use it to set up a site before its pages, e.g. from an integration that holds only a key.',
  },
  'GET /sites/{id}': { id: 'getSite', use: 'Use it to read one site: its name, domain and layout.' },
  'PUT /sites/{id}': {
    id: 'updateSite',
    use: 'Use it to rename a site, set its domain or bind it to a layout; only the fields sent change.',
  },
  'DELETE /sites/{id}': { id: 'deleteSite', use: 'Use it when a site is no longer needed.' },
  'GET /sites/{id}/provider': {
    id: 'getSiteProvider',
    use: 'Use it to check where a site publishes before publishing: the provider, its URL and whether a token is set.',
  },
  'PUT /sites/{id}/provider/fourcms': {
    id: 'setSiteProviderFourcms',
    use: 'Use it once per site before the first publication, or when the CMS URL or token changes; its answer says whether the provider accepted them.',
  },
  'POST /sites/{id}/provider/check': {
    id: 'checkSiteProvider',
    use: 'Use it to learn whether the stored provider settings work (the address answers, the token is accepted) before publishing.',
  },
  'GET /sites/{id}/s3/status': {
    id: 'getSiteStorageStatus',
    use: 'Use it to see where a site’s uploaded images go before uploading.',
  },
  'POST /sites/{id}/s3/upload': {
    id: 'uploadSiteImage',
    use: 'Use it to upload an image that a page’s block values then refer to by the URL it answers.',
  },
  'GET /sites/{id}/uploads': {
    id: 'listSiteUploads',
    use: 'Use it to find an image already uploaded to the site (its URL goes in an image field) before uploading it again.',
  },
  'DELETE /sites/{id}/uploads/{name}': {
    id: 'deleteSiteUpload',
    use: 'Use it to delete an uploaded image no page needs any more, freeing its room in your quota.',
  },

  ...BLOCK_OPERATIONS,

  // Collections and submissions
  'GET /collections': { id: 'listCollections', use: 'Use it to see the curated sets of blocks: global and yours.' },
  'POST /collections': {
    id: 'createCollection',
    use: 'Use it to start a personal set of blocks you use together.',
  },
  'GET /collections/{id}': { id: 'getCollection', use: 'Use it to read one collection with its blocks, in order.' },
  'DELETE /collections/{id}': { id: 'deleteCollection', use: 'Use it to remove a collection; its blocks stay.' },
  'POST /collections/{id}/blocks': {
    id: 'addCollectionBlocks',
    use: 'Use it to put blocks into a collection.',
  },
  'PUT /collections/{id}/blocks/order': {
    id: 'reorderCollectionBlocks',
    use: 'Use it to set the order of a collection’s blocks: send all of them, in the new order.',
  },
  'POST /blocks/{id}/submit': {
    id: 'submitBlock',
    use: 'Use it to offer your block to everyone: an administrator approves or rejects it.',
  },
  'GET /block-submissions': { id: 'listBlockSubmissions', use: 'Use it to follow your submissions and their outcome.' },
  'DELETE /block-submissions/{id}': {
    id: 'withdrawBlockSubmission',
    use: 'Use it to take back a submission before an administrator decides.',
  },

  // Pages
  'GET /pages': {
    id: 'listPages',
    use: 'Use it to list your pages; `has_outdated=1` finds those whose blocks have newer revisions.',
  },
  'POST /pages': {
    id: 'createPage',
    use: 'Use it to make a page from block instances once you have read each block’s placeholder schema.',
    responses: { 400: fieldError('blocks[0].placeholder_values.title', 'This field is required.', 'required') },
  },
  'GET /pages/{id}': {
    id: 'getPage',
    use: 'Use it to read a page; add `with_blocks=1` for its block instances.',
  },
  'PUT /pages/{id}': {
    id: 'updatePage',
    use: 'Use it to change a page’s metadata, or with `blocks` to replace its whole set of instances at once.',
  },
  'DELETE /pages/{id}': { id: 'deletePage', use: 'Use it to remove a page and its instances.' },
  'GET /search/pages': { id: 'searchPages', use: 'Use it to find one of your pages by words.' },
  'GET /pages/{id}/preview': {
    id: 'previewPage',
    use: 'Use it to see a page before publishing it: bound slots show sample data and no provider is called.',
  },
  'POST /pages/{id}/preview': {
    id: 'previewPageDraft',
    use: 'Use it to see a page with changes not saved yet (values, bindings, order, nesting) before saving them.',
  },

  // Page history
  'GET /pages/{id}/versions': {
    id: 'listPageVersions',
    use: 'Use it to see who changed a page, when and how: every successful write made one version.',
  },
  'GET /pages/{id}/versions/{number}': {
    id: 'getPageVersion',
    use: 'Use it to read a page as it was at one version, each block with the revision it was pinned to.',
  },
  'GET /pages/{id}/versions/{number}/preview': {
    id: 'previewPageVersion',
    use: 'Use it to see a past version exactly as it rendered then, whatever its blocks became since.',
  },
  'GET /pages/{id}/versions/{number}/diff': {
    id: 'diffPageVersions',
    use: 'Use it to see what changed between two versions (by default, from one version to now) before restoring.',
  },
  'POST /pages/{id}/versions/{number}/restore': {
    id: 'restorePageVersion',
    use: 'Use it to undo changes: the page gets a new version equal to an old one, pins included; try it with dry_run=1 first.',
    responses: {
      409: {
        error: 'Version 3 cannot be restored: see errors[]. Nothing was changed.',
        errors: [{ path: 'blocks[1]', message: 'Block 12 was deleted since version 3.', code: 'conflict' }],
      },
    },
  },

  // Page blocks
  'POST /pages/{pageId}/blocks': {
    id: 'addPageBlocks',
    use: 'Use it to insert instances into an existing page without sending the others.',
  },
  'PUT /pages/{pageId}/blocks/{pbId}': {
    id: 'updatePageBlock',
    use: 'Use it to change the values or bindings of one instance.',
  },
  'DELETE /pages/{pageId}/blocks/{pbId}': {
    id: 'removePageBlock',
    use: 'Use it to take one instance (and its children) off a page.',
  },
  'PUT /pages/{pageId}/blocks/{pbId}/move': {
    id: 'movePageBlock',
    use: 'Use it to reorder a page, or to put an instance into a layout or take it out.',
  },
  'POST /pages/{pageId}/blocks/{pbId}/upgrade': {
    id: 'upgradePageBlock',
    use: 'Use it when one instance is `outdated_minor`: it moves to its block’s current revision, values kept.',
  },
  'POST /pages/{pageId}/blocks/{pbId}/migrate': {
    id: 'migratePageBlock',
    use: 'Use it when an upgrade answers `migratable: true`: the block’s migrations carry the values over; try it with `dry_run=1` first.',
  },
  'POST /pages/{pageId}/blocks/upgrade-all': {
    id: 'upgradeAllPageBlocks',
    use: 'Use it to bring a whole page up to date after its blocks changed; then replace what it lists in `skipped_major`.',
  },
  'PUT /pages/{pageId}/blocks/{pbId}/replace': {
    id: 'replacePageBlock',
    use: 'Use it for an `outdated_major` instance, or to swap a block: the new instance takes the old one’s place.',
  },

  // Catalog
  'GET /data-sources': {
    id: 'listDataSources',
    use: 'Use it to see which data a binding may name as its `source`.',
  },
  'GET /data-sources/{id}': {
    id: 'getDataSource',
    use: 'Use it before binding a slot: its `params_schema` says which `params` the binding takes.',
  },
  'GET /data-result-types': { id: 'listDataResultTypes', use: 'Use it to see the shapes of data sources return.' },
  'GET /data-result-types/{id}': {
    id: 'getDataResultType',
    use: 'Use it to learn the shape a bound slot receives, and the sample that previews show.',
  },
  'GET /page-types': { id: 'listPageTypes', use: 'Use it to choose the `kind` of a new page.' },
  'GET /tags': { id: 'listTags', use: 'Use it to find the tag ids that filter and describe blocks.' },
  'GET /layout-tags': { id: 'listLayoutTags', use: 'Use it to find the tag ids that describe layouts.' },

  // Folders and layouts
  'GET /folders': { id: 'listFolders', use: 'Use it to see how a site’s pages are arranged.' },
  'POST /folders': {
    id: 'createFolder',
    use: 'Use it to group a site’s pages.',
  },
  'GET /folders/{id}': { id: 'getFolder', use: 'Use it to read one folder.' },
  'PUT /folders/{id}': {
    id: 'updateFolder',
    use: 'Use it to rename a folder or move it under another.',
  },
  'DELETE /folders/{id}': { id: 'deleteFolder', use: 'Use it to remove a folder; its pages stay in the site.' },
  'GET /layouts': { id: 'listLayouts', use: 'Use it to choose the frame a site’s pages render in.' },
  'POST /layouts': {
    id: 'createLayout',
    use: 'Use it to make a private layout of your own.',
  },
  'GET /layouts/{id}': { id: 'getLayout', use: 'Use it to read one layout.' },
  'PUT /layouts/{id}': {
    id: 'updateLayout',
    use: 'Use it to change a private layout.',
  },
  'DELETE /layouts/{id}': { id: 'deleteLayout', use: 'Use it to remove a layout no site uses.' },
  'POST /layouts/{id}/fork': { id: 'forkLayout', use: 'Use it to change a global layout for yourself.' },

  // Publication
  'GET /pages/{id}/publication': {
    id: 'getPublication',
    use: 'Use it after publishing, or to decide between `publish` and `publish-update`.',
  },
  'POST /pages/{id}/publish': {
    id: 'publishPage',
    use: 'Use it once per page, after the site has a provider and the preview looks right.',
  },
  'POST /pages/{id}/publish-update': {
    id: 'publishPageUpdate',
    use: 'Use it after changing a published page, to send the new HTML to the provider.',
  },
  'POST /pages/{id}/schedule': {
    id: 'schedulePagePublication',
    use: 'Use it to publish at a given time (a launch on Monday 9:00), instead of publish or publish-update now.',
  },
  'DELETE /pages/{id}/schedule': {
    id: 'unschedulePagePublication',
    use: 'Use it to cancel a scheduled publication before its time.',
  },

  ...WEBHOOK_OPERATIONS,

  // MCP
  'POST /mcp': {
    id: 'callMcp',
    use: 'Use it from an AI agent’s MCP client; integrations that are not agents use the REST operations.',
  },
  'GET /mcp': { id: 'openMcpStream', use: 'Not offered: an MCP client falls back to POST.' },
  'DELETE /mcp': { id: 'closeMcpSession', use: 'Not offered: the server keeps no MCP session.' },

  // The session contour only
  'POST /auth/register': {
    id: 'register',
    use: 'Use it once per person, to get an account (and a session) in the web app.',
  },
  'POST /auth/login': {
    id: 'login',
    use: 'Use it to get a session cookie, e.g. before creating an API key.',
  },
  'POST /auth/logout': { id: 'logout', use: 'Use it to end the session.' },
  'GET /auth/me': { id: 'getMe', use: 'Use it to learn who is signed in, and whether an administrator.' },
  'GET /api-keys': { id: 'listApiKeys', use: 'Use it to see your keys, by prefix and last use.' },
  'POST /api-keys': {
    id: 'createApiKey',
    use: 'Use it to give an integration or an agent access: keep the `key` it answers, which is shown only once.',
  },
  'DELETE /api-keys/{id}': { id: 'deleteApiKey', use: 'Use it to revoke a key at once.' },
  'GET /admin/users': { id: 'adminListUsers', use: 'Use it to find an account to block or promote.' },
  'PUT /admin/users/{id}': {
    id: 'adminUpdateUser',
    use: 'Use it to block an account or change its role.',
  },
  'POST /admin/blocks': {
    id: 'adminCreateBlock',
    use: 'Use it to publish a block to everyone directly.',
  },
  'PUT /admin/blocks/{id}': { id: 'adminUpdateBlock', use: 'Use it to change a global block.' },
  'PUT /admin/blocks/{id}/deprecation': {
    id: 'adminSetBlockDeprecation',
    use: 'Use it to retire a global block without breaking the pages that use it.',
  },
  'POST /admin/collections': { id: 'adminCreateCollection', use: 'Use it to curate a set of global blocks.' },
  'GET /admin/block-submissions': {
    id: 'adminListBlockSubmissions',
    use: 'Use it to review the blocks users offer.',
  },
  'GET /admin/block-submissions/{id}': {
    id: 'adminGetBlockSubmission',
    use: 'Use it before deciding: it shows exactly what the approval would copy, and whether the author changed the block since.',
  },
  'GET /admin/block-submissions/{id}/preview': {
    id: 'adminPreviewBlockSubmission',
    use: 'Use it to see the submitted revision rendered, in a sandboxed frame.',
  },
  'POST /admin/block-submissions/{id}/approve': {
    id: 'adminApproveBlockSubmission',
    use: 'Use it to accept a submitted block into the global catalog.',
  },
  'POST /admin/block-submissions/{id}/reject': {
    id: 'adminRejectBlockSubmission',
    use: 'Use it to refuse a submission, telling its author why.',
  },
  'GET /admin/tags': { id: 'adminListTags', use: 'Use it to manage the block tags.' },
  'POST /admin/tags': { id: 'adminCreateTag', use: 'Use it to add a block tag.' },
  'PUT /admin/tags/{id}': { id: 'adminUpdateTag', use: 'Use it to rename a block tag.' },
  'DELETE /admin/tags/{id}': { id: 'adminDeleteTag', use: 'Use it to remove a block tag from every block.' },
  'GET /admin/layout-tags': { id: 'adminListLayoutTags', use: 'Use it to manage the layout tags.' },
  'POST /admin/layout-tags': { id: 'adminCreateLayoutTag', use: 'Use it to add a layout tag.' },
  'PUT /admin/layout-tags/{id}': { id: 'adminUpdateLayoutTag', use: 'Use it to rename a layout tag.' },
  'DELETE /admin/layout-tags/{id}': { id: 'adminDeleteLayoutTag', use: 'Use it to remove a layout tag.' },
  'GET /admin/page-types': { id: 'adminListPageTypes', use: 'Use it to manage the kinds a page may have.' },
  'POST /admin/page-types': { id: 'adminCreatePageType', use: 'Use it to add a kind of page.' },
  'PUT /admin/page-types/{kind}': { id: 'adminUpdatePageType', use: 'Use it to retitle a kind of page.' },
  'DELETE /admin/page-types/{kind}': { id: 'adminDeletePageType', use: 'Use it to remove a kind no page has.' },
  'GET /admin/data-result-types': {
    id: 'adminListDataResultTypes',
    use: 'Use it to manage the shapes of data that sources return.',
  },
  'POST /admin/data-result-types': {
    id: 'adminCreateDataResultType',
    use: 'Use it to declare a new shape of data, with its sample for previews.',
  },
  'PUT /admin/data-result-types/{id}': {
    id: 'adminUpdateDataResultType',
    use: 'Use it to change a shape of data or its sample.',
  },
  'DELETE /admin/data-result-types/{id}': {
    id: 'adminDeleteDataResultType',
    use: 'Use it to remove a shape no source returns.',
  },
  'GET /admin/data-sources': { id: 'adminListDataSources', use: 'Use it to manage the data sources.' },
  'POST /admin/data-sources': {
    id: 'adminCreateDataSource',
    use: 'Use it to offer a new source that blocks may bind to.',
  },
  'PUT /admin/data-sources/{id}': { id: 'adminUpdateDataSource', use: 'Use it to change a data source.' },
  'DELETE /admin/data-sources/{id}': {
    id: 'adminDeleteDataSource',
    use: 'Use it to remove a source no block binds to.',
  },
  'POST /admin/layouts': { id: 'adminCreateLayout', use: 'Use it to offer a layout to everyone.' },
};
