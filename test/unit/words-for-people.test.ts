import { describe, expect, it } from 'vitest';
import { RenderError } from '../../src/rendering/render-error.js';
import { ApiError, errorMessage, placedMessage } from '../../web/src/api/errors.js';

/*
 * The service's sentences speak to API clients (ids, paths); the web app
 * shows them to people without an internal id or an API path. The sentences
 * are the service's own, made by its code where it can be called here.
 */
const shown = (body: unknown, status = 422) => errorMessage(new ApiError(status, body));
const NO_ID_NO_PATH = /\d{2,}|\/api\/|\[\d+\]|placeholder_values|schema_content/;

describe('the service’s words as the web app shows them', () => {
  it('names a template that cannot be rendered without its block’s or revision’s id', () => {
    const inPage = new RenderError({
      reason: 'syntax',
      detail: 'tag "iff" not found',
      revisionId: 61,
      blockId: 64,
      index: 1,
    });
    const alone = new RenderError({ reason: 'syntax', detail: 'oops', revisionId: 61, blockId: 64, alone: true });
    expect(shown({ error: inPage.message })).toBe('A block on this page cannot be rendered: tag "iff" not found');
    expect(shown({ error: alone.message })).toBe('The template cannot be rendered: oops');
  });

  it('says a lost session, an upgrade that needs values and a deleted block in words', () => {
    expect(shown({ error: 'Sign-in required: POST /api/auth/login first.' }, 401)).toBe(
      'You are signed out. Sign in again to go on.',
    );
    expect(
      shown({
        error: 'Instance 77 cannot take version 1.1 without new values: replace it instead.',
        errors: [{ path: 'placeholder_values.b', message: 'B is required.' }],
      }),
    ).toBe('This block cannot take version 1.1 without new values: replace it instead.');
    for (const text of [
      shown({ error: new RenderError({ reason: 'error', detail: 'x', revisionId: 12, blockId: 34 }).message }),
      shown({ error: 'Sign-in required: POST /api/auth/login first.' }, 401),
    ])
      expect(text).not.toMatch(NO_ID_NO_PATH);
  });

  it('places a message by its field’s words, never by the API path', () => {
    expect(placedMessage({ path: 'blocks[0].placeholder_values.heading', message: 'Heading is required.' })).toBe(
      'Heading is required.',
    );
    expect(placedMessage({ path: 'schema_content[0].fields[0].name', message: 'This field is required.' })).toBe(
      'Name: This field is required.',
    );
    expect(placedMessage({ path: 'meta_title', message: 'This value is too long.' })).toBe(
      'Meta title: This value is too long.',
    );
    expect(
      shown({
        error: 'Block validation failed: see errors[].',
        errors: [{ path: 'blocks[3].placeholder_values.title', message: 'Title is required.' }],
      }),
    ).toBe('Block validation failed. Title is required.');
  });
});
