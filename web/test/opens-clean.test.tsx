import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, pageBody, pageInstance, user } from './fake-api';
import { renderApp } from './render';
import { noProvider, unpublished } from './publication';

/*
 * A block opens clean: a boolean field, a field with a default and one with
 * no value yet are no change before the first keystroke, and React says
 * nothing of an input going from uncontrolled to controlled.
 */
const schema = {
  type: 'object',
  properties: {
    title: { type: 'string', title: 'Title' },
    shown: { type: 'boolean', title: 'Shown' },
    tone: { type: 'string', title: 'Tone', enum: ['calm', 'loud'], default: 'calm' },
    count: { type: 'integer', title: 'Count', default: 3 },
    note: { type: 'string', title: 'Note' },
    author: {
      type: 'object',
      title: 'Author',
      properties: { name: { type: 'string', title: 'Name', default: 'Ann' } },
    },
  },
};

function service(values: Record<string, unknown>) {
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/pages/{id}/publication': () => [200, unpublished],
    'GET /api/sites/{id}/provider': () => [200, noProvider],
    'GET /api/pages/{id}': () => [200, pageBody({ blocks: [pageInstance({ placeholder_values: values })] })],
    'GET /api/blocks/{id}/placeholder-schema': () => [
      200,
      { block_type: 'schema', schema, example: {}, binding_slots: [] },
    ],
    'POST /api/pages/{id}/preview': () => [200, '<h1>Hello</h1>', { 'content-type': 'text/html' }],
  });
}

let errors: string[] = [];
beforeEach(() => {
  errors = [];
  const keep = (...args: unknown[]) => void errors.push(args.map(String).join(' '));
  vi.spyOn(console, 'error').mockImplementation(keep);
  vi.spyOn(console, 'warn').mockImplementation(keep);
});
afterEach(() => vi.restoreAllMocks());

describe('a block opens clean', () => {
  for (const [name, values] of [
    ['with only a title', { title: 'Hello' }],
    ['with every value', { title: 'Hello', shown: true, tone: 'loud', count: 1, note: 'n', author: { name: 'Bo' } }],
  ] as const)
    it(`has no unsaved change before a keystroke, ${name}`, async () => {
      renderApp('/pages/5', service(values).api);
      await userEvent.click(await screen.findByRole('button', { name: 'Edit Hero' }));
      const panel = await screen.findByRole('region', { name: 'Edit “Hero”' });
      await within(panel).findByRole('checkbox', { name: 'Shown' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(within(panel).getByText('No unsaved changes')).toBeTruthy();
      expect(within(panel).queryByRole('button', { name: 'Discard changes' })).toBeNull();
      expect(errors.filter((e) => /uncontrolled|controlled input/i.test(e))).toEqual([]);
      // The first keystroke is a change.
      await userEvent.click(within(panel).getByRole('checkbox', { name: 'Shown' }));
      expect(await within(panel).findByText('Unsaved changes')).toBeTruthy();
    });
});
