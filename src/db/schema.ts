import type { ColumnType, Generated } from 'kysely';

/**
 * Column types as both dialects hand them back after the dialect files have
 * normalised them: timestamps are ISO-8601 strings, JSON columns are JSON text,
 * booleans are booleans (PostgreSQL) or 0/1 (SQLite) and are read with `Boolean()`.
 */
export type Timestamp = ColumnType<string, string, string>;
export type Bool = ColumnType<boolean | number, boolean, boolean>;
export type JsonText = ColumnType<string, string, string>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  is_admin: Bool;
  is_blocked: Bool;
  created_at: Timestamp;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

export interface SitesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  domain: string | null;
  layout_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
  slug: string;
}

export interface DataResultTypesTable {
  id: string;
  title: string;
  schema_json: JsonText;
  stub: JsonText;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DataSourcesTable {
  id: string;
  title: string;
  description: string;
  result_type_id: string;
  params_schema: JsonText;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BlocksTable {
  id: Generated<number>;
  owner_id: number;
  scope: 'global' | 'user';
  kind: 'content' | 'layout';
  name: string;
  description: string;
  docs: string;
  block_type: 'schema' | 'markdown' | null;
  cover_key: string | null;
  is_deprecated: Bool;
  fork_count: Generated<number>;
  forked_from_id: number | null;
  current_revision_id: number | null;
  /** Counts the block's changes: its version in ETags (migration 0019). */
  edit_version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BlockRevisionsTable {
  id: Generated<number>;
  block_id: number;
  major: number;
  minor: number;
  template: string;
  css: string;
  js: string;
  schema_content: JsonText;
  changelog: string | null;
  created_at: Timestamp;
  /** The value migrations from the revision before (issue 29, point 5); `[]` for none. */
  migrations: ColumnType<string, string | undefined, string>;
}

export interface BlockRevisionSourcesTable {
  revision_id: number;
  source_id: string;
}

export interface BlockTagsTable {
  block_id: number;
  tag_id: number;
}

export interface FavoritesTable {
  user_id: number;
  block_id: number;
  created_at: Timestamp;
}

export interface CollectionsTable {
  id: Generated<number>;
  owner_id: number;
  scope: 'global' | 'user';
  name: string;
  created_at: Timestamp;
}

export interface CollectionBlocksTable {
  collection_id: number;
  block_id: number;
  position: number;
}

export interface BlockSubmissionsTable {
  id: Generated<number>;
  block_id: number;
  user_id: number;
  status: 'pending' | 'approved' | 'rejected';
  reason: string | null;
  approved_block_id: number | null;
  created_at: Timestamp;
  decided_at: Timestamp | null;
  /** What was submitted, kept for the approval; null only on submissions decided before it was kept. */
  revision_id: number | null;
  block_name: string | null;
  block_description: string | null;
  block_docs: string | null;
  block_type: 'schema' | 'markdown' | null;
}

export interface PageTypesTable {
  kind: string;
  title: string;
}

export interface LayoutsTable {
  id: Generated<number>;
  owner_id: number;
  scope: 'global' | 'user';
  site_id: number | null;
  name: string;
  template: string;
  css: string;
  js: string;
  fork_count: Generated<number>;
  forked_from_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LayoutLayoutTagsTable {
  layout_id: number;
  tag_id: number;
}

export interface FoldersTable {
  id: Generated<number>;
  owner_id: number;
  site_id: number;
  parent_id: number | null;
  name: string;
  created_at: Timestamp;
}

export interface PagesTable {
  id: Generated<number>;
  owner_id: number;
  site_id: number | null;
  folder_id: number | null;
  kind: string;
  name: string;
  slug: string | null;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  meta_robots: string | null;
  is_published: Bool;
  external_id: string | null;
  external_slug: string | null;
  published_at: Timestamp | null;
  publication_updated_at: Timestamp | null;
  publication_claimed_at: Timestamp | null;
  publication_error: string | null;
  publication_error_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The number of the page's latest version (page_versions). */
  version: ColumnType<number, number | undefined, number>;
}

/** An instance as it stood in one or more versions of its page: written only when it changed. */
export interface PageBlockStatesTable {
  id: Generated<number>;
  page_id: number;
  page_block_id: number;
  parent_page_block_id: number | null;
  block_id: number;
  revision_id: number;
  major: number;
  minor: number;
  placeholder_values: JsonText;
  bindings: JsonText | null;
}

/** One version of a page: its metadata, who made it, and its instances as `[[instance id, state id], ...]`. */
export interface PageVersionsTable {
  page_id: number;
  number: number;
  created_at: Timestamp;
  actor_user_id: number | null;
  actor_via: string;
  actor_key_prefix: string | null;
  summary: string;
  published: ColumnType<boolean | number, boolean | undefined, boolean>;
  name: string;
  site_id: number | null;
  folder_id: number | null;
  slug: string | null;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  meta_robots: string | null;
  blocks: string;
}

export interface PageBlocksTable {
  id: Generated<number>;
  page_id: number;
  block_id: number;
  revision_id: number;
  major: number;
  minor: number;
  placeholder_values: JsonText;
  bindings: JsonText | null;
  parent_page_block_id: number | null;
  order_index: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SiteProvidersTable {
  site_id: number;
  type: string;
  base_url: string;
  token: string;
  updated_at: Timestamp;
}

/** Counters of the auth throttle (rate-limiter-flexible's store), shared by every instance. */
export interface RateLimitsTable {
  key: string;
  points: number;
  /** Epoch milliseconds. */
  expire: number;
}

export interface UploadsTable {
  key: string;
  user_id: number;
  bytes: number;
  created_at: Timestamp;
}

/** The embedded database's job queue (PostgreSQL keeps its jobs in pg-boss's own schema). */
export interface JobsTable {
  id: string;
  name: string;
  /** JSON text. */
  data: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'failed' | 'cancelled';
  /** ISO 8601 (UTC, milliseconds): compared as text. */
  run_at: string;
  /** Tries begun. */
  attempts: number;
  retry_limit: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface UpgradeSetsTable {
  id: Generated<number>;
  owner_id: number;
  block_id: number;
  to_major: number;
  to_minor: number;
  instances: number;
  created_at: Timestamp;
  reverted_at: Timestamp | null;
}

export interface UpgradeSetPagesTable {
  set_id: number;
  page_id: number;
  position: number;
  version_before: number;
  version_after: number;
  instances: number;
}

export interface PageSchedulesTable {
  page_id: number;
  user_id: number;
  publish_at: Timestamp;
  /** The publish body, JSON. */
  input: JsonText;
  /** The job that will run it; null once it ran or was unscheduled. */
  job_id: string | null;
  outcome: 'published' | 'failed' | null;
  attempts: Generated<number>;
  last_error: string | null;
  ran_at: Timestamp | null;
  created_at: Timestamp;
}

export interface WebhooksTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  description: string | null;
  /** JSON array of event types. */
  events: string;
  /** The signing key's bytes, base64. */
  secret: string;
  enabled: Bool;
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  consecutive_failures: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: number;
  event: string;
  /** The exact body signed and sent. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  response_status: number | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  at: Timestamp;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export interface DB {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  page_schedules: PageSchedulesTable;
  upgrade_sets: UpgradeSetsTable;
  upgrade_set_pages: UpgradeSetPagesTable;
  jobs: JobsTable;
  rate_limits: RateLimitsTable;
  uploads: UploadsTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  sites: SitesTable;
  tags: TagsTable;
  layout_tags: TagsTable;
  data_result_types: DataResultTypesTable;
  data_sources: DataSourcesTable;
  blocks: BlocksTable;
  block_revisions: BlockRevisionsTable;
  block_revision_sources: BlockRevisionSourcesTable;
  block_tags: BlockTagsTable;
  favorites: FavoritesTable;
  collections: CollectionsTable;
  collection_blocks: CollectionBlocksTable;
  block_submissions: BlockSubmissionsTable;
  page_types: PageTypesTable;
  layouts: LayoutsTable;
  layout_layout_tags: LayoutLayoutTagsTable;
  folders: FoldersTable;
  pages: PagesTable;
  page_blocks: PageBlocksTable;
  page_block_states: PageBlockStatesTable;
  page_versions: PageVersionsTable;
  site_providers: SiteProvidersTable;
}
