/**
 * Provider name → factory. The names here are the only values a site's
 * provider `type` may take; the composition root and the settings routes ask
 * `isProviderType` before storing or building one.
 */
import { createFourcmsProvider } from './fourcms/fourcms.provider.js';
import type { CmsProvider, ProviderSettings } from '../modules/publishing/publishing.js';
import type { ProviderFactory, ProviderOptions } from './provider.js';

export const providerRegistry = {
  fourcms: createFourcmsProvider,
} as const satisfies Record<string, ProviderFactory>;

export type ProviderType = keyof typeof providerRegistry;

export const providerTypes = Object.keys(providerRegistry) as ProviderType[];

export const isProviderType = (name: string): name is ProviderType => Object.hasOwn(providerRegistry, name);

/** A stored type that is not registered is a programming or data error, not a client's: a plain Error (500). */
export class UnknownProviderError extends Error {
  constructor(type: string) {
    super(`Unknown CMS provider type "${type}" (known: ${providerTypes.join(', ')})`);
    this.name = 'UnknownProviderError';
  }
}

export function createProvider(type: string, settings: ProviderSettings, options: ProviderOptions): CmsProvider {
  if (!isProviderType(type)) throw new UnknownProviderError(type);
  return providerRegistry[type](settings, options);
}
