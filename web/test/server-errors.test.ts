import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage } from '../src/api/errors';
import { formPath, splitServerErrors } from '../src/forms/server-errors';

describe('splitServerErrors', () => {
  const known = new Set(['name', 'blocks.0.placeholder_values.title']);
  const hasField = (path: string) => known.has(path);

  it('places each error on its field and the others in the summary', () => {
    const error = new ApiError(400, {
      error: 'Block validation failed.',
      errors: [
        { path: 'blocks[0].placeholder_values.title', message: 'Required.' },
        { path: 'name', message: 'Must not be blank.' },
        { path: 'slug', message: 'Taken.' },
        { path: 'root', message: 'Something about the whole body.' },
      ],
    });
    expect(splitServerErrors(error, hasField)).toEqual({
      fields: { 'blocks.0.placeholder_values.title': 'Required.', name: 'Must not be blank.' },
      summary: ['Slug: Taken.', 'Something about the whole body.'],
    });
  });

  it('keeps the first message of a field', () => {
    const error = new ApiError(400, {
      error: 'x',
      errors: [
        { path: 'name', message: 'First.' },
        { path: 'name', message: 'Second.' },
      ],
    });
    expect(splitServerErrors(error, hasField)).toEqual({ fields: { name: 'First.' }, summary: ['Name: Second.'] });
  });

  it('falls back to the error sentence, and to words for a network failure', () => {
    expect(splitServerErrors(new ApiError(409, { error: 'Slug taken.' }), hasField).summary).toEqual(['Slug taken.']);
    expect(splitServerErrors(new TypeError('Failed to fetch'), hasField).summary[0]).toMatch(/cannot be reached/);
  });

  it('reads the code-and-message shapes of the service', () => {
    expect(new ApiError(422, { error: 'major_upgrade_blocked', message: 'Fields would be lost.' }).message).toBe(
      'Fields would be lost.',
    );
    expect(new ApiError(409, { error: { code: 'conflict', message: 'Block is on pages.' } }).message).toBe(
      'Block is on pages.',
    );
  });

  it('turns indices into form paths', () => {
    expect(formPath('blocks[12].bindings.products.source')).toBe('blocks.12.bindings.products.source');
  });
});

describe('errorMessage', () => {
  it('puts the places and their messages where the service says "see errors[]"', () => {
    const error = new ApiError(400, {
      error: 'Block validation failed: see errors[].',
      errors: [
        { path: 'bindings.articles.params.limit', message: 'Limit is too large: at most 50.' },
        { path: 'placeholder_values.title', message: 'Title is required.' },
      ],
    });
    expect(errorMessage(error)).toBe(
      // A block's values and params name their field in the message itself: no API path.
      'Block validation failed. Limit is too large: at most 50. Title is required.',
    );
  });

  it('keeps a message that needs nothing more, and one without places', () => {
    expect(
      errorMessage(new ApiError(409, { error: 'The slug is taken.', errors: [{ path: 'slug', message: 'Taken.' }] })),
    ).toBe('The slug is taken.');
    expect(errorMessage(new ApiError(400, { error: 'Invalid: see errors[].' }))).toBe('Invalid: see errors[].');
  });
});
