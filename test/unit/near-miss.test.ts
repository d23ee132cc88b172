import { describe, expect, it } from 'vitest';
import { meantFor, nearMiss } from '../../src/shared/near-miss.js';

describe('nearMiss', () => {
  it.each([
    ['title', ['name', 'site_id'], 'name'],
    ['siteId', ['name', 'site_id'], 'site_id'],
    ['lmit', ['limit', 'sort', 'filter'], 'limit'],
    ['count', ['limit', 'sort', 'filter'], 'limit'],
    ['order_by', ['limit', 'sort'], 'sort'],
    ['layouts', ['content', 'layout'], 'layout'],
  ])('%s among %j → %s', (guess, allowed, expected) => expect(nearMiss(guess, allowed)).toBe(expected));

  it('suggests nothing when nothing is close', () => {
    expect(nearMiss('colour', ['limit', 'sort', 'filter'])).toBeUndefined();
    expect(nearMiss('limit', [])).toBeUndefined();
  });
});

describe('meantFor', () => {
  it('finds the sent key meant for a missing one', () => {
    expect(meantFor('name', ['title', 'extra'])).toBe('title');
    expect(meantFor('site_id', ['siteId', 'extra'])).toBe('siteId');
  });

  it('takes the only unexpected key, and guesses nothing among several unrelated ones', () => {
    expect(meantFor('name', ['heading'])).toBe('heading');
    expect(meantFor('name', ['heading', 'caption'])).toBeUndefined();
    expect(meantFor('name', [])).toBeUndefined();
  });
});
