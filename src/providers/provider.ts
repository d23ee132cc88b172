/**
 * What every CMS adapter gets from the composition root. The port the
 * adapters implement, `CmsProvider`, is declared by its user, the publishing
 * module.
 */
import type { CmsProvider, ProviderSettings } from '../modules/publishing/publishing.js';

/** A provider that has not answered in 10 s has failed. */
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

export type ProviderFactory = (settings: ProviderSettings, options: ProviderOptions) => CmsProvider;
