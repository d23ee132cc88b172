/**
 * The client's PageWriteGuard: every page write of the editor carries
 * If-Match with the version it shows, moves on with each answer, and a 412
 * is told to the editor and said in words (issue 26, point 5).
 */
import { describe, expect, it } from 'vitest';
import { pageWriteGuardOf, unwrap } from '../src/api/client';
import { ApiError, VERSION_CONFLICT_MESSAGE } from '../src/api/errors';
import type { VersionConflict } from '../src/api/page-versions';
import { fakeApi } from './fake-api';

const pageBody = (version: number) => ({ id: 5, version, blocks: [] });

/** The guard createApi installed on the fake's client, as on the app's. */
const guarded = (fake: ReturnType<typeof fakeApi>) => pageWriteGuardOf(fake.api);

describe('PageWriteGuard', () => {
  it('sends If-Match on every page write of a page the editor shows, and nothing on reads, previews or publication', async () => {
    let version = 3;
    const fake = fakeApi({
      'GET /api/pages/{id}': () => [200, pageBody(version)],
      'PUT /api/pages/{id}': () => [200, pageBody(++version), { etag: `W/"${version}"` }],
      'DELETE /api/pages/{pageId}/blocks/{pbId}': () => (version++, [204]),
      'POST /api/pages/{pageId}/blocks/upgrade-all': () => (version++, [200, { upgraded: [] }]),
      'POST /api/pages/{id}/versions/{number}/restore': () => [200, pageBody(++version), { etag: `W/"${version}"` }],
      'POST /api/pages/{id}/preview': () => [200, '<p>x</p>', { 'content-type': 'text/html' }],
      'POST /api/pages/{id}/publish-update': () => [200, {}],
    });
    const guard = guarded(fake);
    const path = { params: { path: { id: 5 } } };
    // Not shown in an editor: no condition.
    await unwrap(fake.api.PUT('/api/pages/{id}', { ...path, body: { name: 'a' } }));
    expect(fake.calls.at(-1)!.headers.get('if-match')).toBeNull();

    guard.advance(5, version);
    await unwrap(fake.api.GET('/api/pages/{id}', path));
    await unwrap(fake.api.POST('/api/pages/{id}/preview', { ...path, body: {}, parseAs: 'text' }));
    await unwrap(fake.api.POST('/api/pages/{id}/publish-update', { ...path, body: {} }));
    await unwrap(fake.api.PUT('/api/pages/{id}', { ...path, body: { name: 'b' } }));
    await unwrap(fake.api.DELETE('/api/pages/{pageId}/blocks/{pbId}', { params: { path: { pageId: 5, pbId: 9 } } }));
    await unwrap(fake.api.POST('/api/pages/{pageId}/blocks/upgrade-all', { params: { path: { pageId: 5 } } }));
    await unwrap(
      fake.api.POST('/api/pages/{id}/versions/{number}/restore', { params: { path: { id: 5, number: 1 } } }),
    );
    expect(fake.calls.slice(1).map((c) => [c.method, c.path, c.headers.get('if-match')])).toEqual([
      ['GET', '/api/pages/5', null],
      ['POST', '/api/pages/5/preview', null],
      ['POST', '/api/pages/5/publish-update', null],
      // Each the version the one before made: its ETag, or the next one when it answers none.
      ['PUT', '/api/pages/5', 'W/"4"'],
      ['DELETE', '/api/pages/5/blocks/9', 'W/"5"'],
      ['POST', '/api/pages/5/blocks/upgrade-all', 'W/"6"'],
      ['POST', '/api/pages/5/versions/1/restore', 'W/"7"'],
    ]);
    expect(guard.expected(5)).toBe(8);
    guard.forget(5);
    await unwrap(fake.api.PUT('/api/pages/{id}', { ...path, body: { name: 'c' } }));
    expect(fake.calls.at(-1)!.headers.get('if-match')).toBeNull();
  });

  it('sends two writes at once one after the other, the second expecting the version the first made', async () => {
    let version = 1;
    const fake = fakeApi({
      'PUT /api/pages/{pageId}/blocks/{pbId}': async ({ headers }) => {
        if (headers.get('if-match') !== `W/"${version}"`)
          return [412, { error: 'version_conflict', current_version: version }];
        await new Promise((resolve) => setTimeout(resolve, 20));
        return [200, pageBody(++version), { etag: `W/"${version}"` }];
      },
    });
    const guard = guarded(fake);
    guard.advance(5, 1);
    const write = (pbId: number) =>
      unwrap(
        fake.api.PUT('/api/pages/{pageId}/blocks/{pbId}', {
          params: { path: { pageId: 5, pbId } },
          body: { placeholder_values: {} },
        }),
      );
    await Promise.all([write(1), write(2), write(3)]);
    expect(fake.calls.map((c) => c.headers.get('if-match'))).toEqual(['W/"1"', 'W/"2"', 'W/"3"']);
    expect(guard.expected(5)).toBe(4);
  });

  it('tells the editor of a 412, moves nothing on, and the error says it in words', async () => {
    const fake = fakeApi({
      'PUT /api/pages/{id}': () => [
        412,
        {
          error: 'version_conflict',
          message: 'Page 5 is at version 9, not the one this write expected.',
          current_version: 9,
          errors: [{ path: 'If-Match', message: 'The object is at version 9 (W/"9").', code: 'conflict' }],
        },
        { etag: 'W/"9"' },
      ],
    });
    const guard = guarded(fake);
    const told: VersionConflict[] = [];
    const stop = guard.onConflict((conflict) => told.push(conflict));
    guard.advance(5, 7);
    const error = await unwrap(fake.api.PUT('/api/pages/{id}', { params: { path: { id: 5 } }, body: {} })).catch(
      (e: unknown) => e,
    );
    expect(told).toEqual([{ pageId: 5, expected: 7, current: 9 }]);
    expect(guard.expected(5)).toBe(7);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(VERSION_CONFLICT_MESSAGE);
    expect((error as ApiError).errors).toEqual([]);
    stop();
  });
});
