/** What a page editor's fake service answers for publication when a test is not about it. */
export const unpublished = {
  is_published: false,
  external_id: null,
  external_slug: null,
  published_at: null,
  updated_at: null,
  last_error: null,
  last_error_at: null,
};
export const noProvider = { type: null, base_url: null, token_set: false, updated_at: null };
