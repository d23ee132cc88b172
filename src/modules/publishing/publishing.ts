export interface PublicationStatus {
  is_published: boolean;
  external_id: string | null;
  external_slug: string | null;
  published_at: string | null;
  updated_at: string | null;
}

export interface ProviderRecord {
  type: string | null;
  base_url: string | null;
  token_set: boolean;
  updated_at: string | null;
}

export interface StoredProvider {
  type: string;
  base_url: string;
  token: string;
}

/** What a rendering needs of an instance's pinned revision. */
export interface RevisionAssets {
  id: number;
  template: string;
  css: string;
  js: string;
}

/** Port: publication state, provider settings and what rendering reads. */
export interface PublishingRepository {
  status(pageId: number): Promise<PublicationStatus | undefined>;
  /**
   * Claims the page for a publication when it is in `expected` state and not
   * claimed by a live attempt (older than `staleBefore` claims are dead).
   * False when another attempt holds it or the state differs.
   */
  claim(input: { pageId: number; expectPublished: boolean; now: string; staleBefore: string }): Promise<boolean>;
  release(pageId: number): Promise<void>;
  markPublished(input: { pageId: number; externalId: string; externalSlug: string | null; now: string }): Promise<void>;
  markUpdated(input: { pageId: number; externalSlug: string | null; now: string }): Promise<void>;
  provider(siteId: number): Promise<StoredProvider | undefined>;
  providerRecord(siteId: number): Promise<ProviderRecord>;
  saveProvider(input: {
    siteId: number;
    type: string;
    baseUrl: string;
    token: string;
    now: string;
  }): Promise<ProviderRecord>;
  revisions(ids: number[]): Promise<Map<number, RevisionAssets>>;
  /** The stub of each source's result type. */
  stubs(sourceIds: string[]): Promise<Map<string, unknown>>;
}
