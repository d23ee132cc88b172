/**
 * The port every CMS adapter implements. Publishing code depends on this file
 * only; which adapter stands behind it is decided by the registry.
 */

/** One block instance as the provider receives it, so it can render live data itself. */
export interface PublishedBlock {
  /** The page block (instance) id. */
  id: number;
  block_id: number;
  version: { major: number; minor: number };
  /** The LiquidJS template of the pinned revision. */
  template: string;
  placeholder_values: Record<string, unknown>;
  bindings: Record<string, unknown> | null;
}

/** The document sent on a first publication (contract.md section 5). */
export interface PublishDocument {
  kind: string;
  title: string;
  slug?: string;
  rubric_ids?: number[];
  meta_title?: string;
  meta_description?: string;
  preview_text?: string;
  /** The page rendered as in a preview (stubs in bound slots). */
  html: string;
  css: string;
  js: string;
  blocks: PublishedBlock[];
}

/** An update: the fields being changed, plus the regenerated output, always. */
export type PublishUpdate = Partial<PublishDocument> & Pick<PublishDocument, 'html' | 'css' | 'js' | 'blocks'>;

/** What the provider answers: its own id (normalized to a string) and the slug it settled on. */
export interface PublishedRef {
  id: string;
  slug: string | null;
}

/** A site's provider settings as stored; the token never leaves the service. */
export interface ProviderSettings {
  base_url: string;
  token: string;
}

/** contract.md section 5: a provider that has not answered in 10 s has failed. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** Options every factory receives from the composition root. */
export interface ProviderOptions {
  /** `PROVIDER_ALLOW_PRIVATE=1`: loopback and private addresses are allowed (local trials, tests). */
  allowPrivate: boolean;
  /** Time-out of one call (guard check and answer body included); `DEFAULT_PROVIDER_TIMEOUT_MS` when absent. */
  timeoutMs?: number;
  /** Host name → addresses; the system resolver when absent (tests inject one). */
  lookup?: (host: string) => Promise<string[]>;
}

/**
 * Every failure (refused URL, time-out, unreachable host, non-2xx answer,
 * unreadable answer) rejects with `AppError` of kind `bad_gateway` whose
 * message carries the provider's own message when it sent one, never the token.
 */
export interface CmsProvider {
  publish(doc: PublishDocument): Promise<PublishedRef>;
  update(id: string, doc: PublishUpdate): Promise<PublishedRef>;
}

export type ProviderFactory = (settings: ProviderSettings, options: ProviderOptions) => CmsProvider;
