import { describe, expect, it, vi } from 'vitest';
import { StoredJson } from '../../../src/shared/stored-json.js';

describe('StoredJson', () => {
  it('keeps the stored text as it is, and parses it once, at the first look at the value', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const stored = StoredJson.fromText<{ t: string }>('{"t": "x"}');
      expect(stored.text).toBe('{"t": "x"}');
      expect(parse).not.toHaveBeenCalled();
      expect(stored.value).toEqual({ t: 'x' });
      expect(stored.value).toBe(stored.value);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("gives a value's text as JSON.stringify writes it, written once", () => {
    const value = { t: 'x', list: [1, 2] };
    const json = StoredJson.of(value);
    expect(json.value).toBe(value);
    expect(json.text).toBe('{"t":"x","list":[1,2]}');
    expect(json.text).toBe(json.text);
  });
});
