import { describe, expect, it } from 'vitest';
import { RenderError, Renderer, type BlockRenderInput, type RenderFailure } from '../../../src/rendering/index.js';

// Generous: the bounds only prove that a hostile template does not hang the process.
const NO_HANG_MS = 5000;

const renderer = new Renderer();
let nextRevision = 1;

async function failure(template: string): Promise<{ error: RenderError; ms: number }> {
  const input: BlockRenderInput = {
    revisionId: nextRevision++,
    blockId: 77,
    template,
    values: {},
    slots: {},
    blockType: 'schema',
    richtextFields: [],
  };
  const started = performance.now();
  try {
    await renderer.renderBlock(input);
  } catch (error) {
    const ms = performance.now() - started;
    if (error instanceof RenderError) return { error, ms };
    throw error;
  }
  throw new Error('expected a RenderError, but the template rendered');
}

describe('Renderer: hostile templates fail fast with a RenderError', () => {
  it.each<[string, string, RenderFailure, RegExp]>([
    ['an endless loop', '{% for i in (1..100000000) %}x{% endfor %}', 'memory_limit', /memory/],
    [
      'a loop that runs too long',
      '{% for a in (1..20000) %}{% for b in (1..20000) %}x{% endfor %}{% endfor %}',
      'render_limit',
      /longer than 1000 ms/,
    ],
    [
      'a string doubled in a loop',
      '{% assign s = "x" %}{% for i in (1..60) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
      'memory_limit',
      /memory/,
    ],
    ['a template over the parse limit', 'x'.repeat(256 * 1024 + 1), 'parse_limit', /over the limit of 262144/],
    ['a syntax error', '<p>{% if %}</p>', 'syntax', /Liquid syntax error/],
    ['an unclosed tag', '{% for i in list %}', 'syntax', /not closed/],
    ['deep nesting', '{%if 1%}'.repeat(14000) + '{%endif%}'.repeat(14000), 'syntax', /nested too deeply/],
  ])('%s', async (_name, template, reason, message) => {
    const { error, ms } = await failure(template);
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^Block 77 \(revision \d+\) cannot be rendered: /);
    expect(error.blockId).toBe(77);
    expect(ms).toBeLessThan(NO_HANG_MS);
  });

  it('stops at the time limit, not long after', async () => {
    const { error, ms } = await failure('{% for a in (1..20000) %}{% for b in (1..20000) %}x{% endfor %}{% endfor %}');
    expect(error.reason).toBe('render_limit');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(NO_HANG_MS);
  });

  it('applies the limits it is given', async () => {
    const strict = new Renderer({ parseLimit: 40, memoryLimit: 1000, renderLimit: 50 });
    const input = (template: string): BlockRenderInput => ({
      revisionId: nextRevision++,
      template,
      values: {},
      slots: {},
      blockType: 'schema',
      richtextFields: [],
    });
    await expect(strict.renderBlock(input('x'.repeat(41)))).rejects.toMatchObject({ reason: 'parse_limit' });
    await expect(strict.renderBlock(input('{% for i in (1..2000) %}{% endfor %}'))).rejects.toMatchObject({
      reason: 'memory_limit',
    });
    expect(await strict.renderBlock(input('x'.repeat(40)))).toBe('x'.repeat(40));
  });

  it('caps the HTML of a block', async () => {
    const small = new Renderer({ outputLimit: 100 });
    const input: BlockRenderInput = {
      revisionId: 1,
      template: '{% for i in (1..101) %}x{% endfor %}',
      values: {},
      slots: {},
      blockType: 'schema',
      richtextFields: [],
    };
    await expect(small.renderBlock(input)).rejects.toMatchObject({ reason: 'output_limit' });
  });

  it('keeps rendering after hostile templates', async () => {
    await failure('{% for i in (1..100000000) %}x{% endfor %}');
    const html = await renderer.renderBlock({
      revisionId: nextRevision++,
      template: 'still {{ ok }}',
      values: { ok: 'fine' },
      slots: {},
      blockType: 'schema',
      richtextFields: [],
    });
    expect(html).toBe('still fine');
  });
});
