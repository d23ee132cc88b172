import { describe, expect, it } from 'vitest';
import { FourcmsProvider } from '../../../src/providers/fourcms/fourcms.provider.js';
import {
  createProvider,
  isProviderType,
  providerTypes,
  UnknownProviderError,
} from '../../../src/providers/registry.js';

const settings = { base_url: 'http://127.0.0.1:4010', token: 'registry-token' };
const options = { allowPrivate: true, timeoutMs: 300 };

describe('provider registry', () => {
  it('builds a fourcms adapter by name', () => {
    expect(createProvider('fourcms', settings, options)).toBeInstanceOf(FourcmsProvider);
    expect(providerTypes).toEqual(['fourcms']);
    expect(isProviderType('fourcms')).toBe(true);
  });

  it.each(['wordpress', '', 'toString', '__proto__'])('refuses the unknown type %j', (type) => {
    expect(isProviderType(type)).toBe(false);
    expect(() => createProvider(type, settings, options)).toThrow(UnknownProviderError);
  });

  it('does not put the token in the unknown-type error', () => {
    expect(() => createProvider('nope', settings, options)).toThrow(
      /Unknown CMS provider type "nope" \(known: fourcms\)/,
    );
    try {
      createProvider('nope', settings, options);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('registry-token');
    }
  });
});
