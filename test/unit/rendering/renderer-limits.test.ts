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
    ['an endless loop', '{% for i in (1..100000000) %}x{% endfor %}', 'range_limit', /over the limit of 100000/],
    [
      'a range too large to sort, by a variable bound',
      '{% assign n = 33000000 %}{% assign a = (1..n) | sort %}{{ a | size }}',
      'range_limit',
      /the range \(1\.\.n\) has 33000000 items, over the limit of 100000/,
    ],
    [
      'a range in a filter argument',
      '{% assign a = "" | split: "," | concat: (0..100000) %}',
      'range_limit',
      /has 100001 items/,
    ],
    ['a range in a condition', '{% if (1..1000000000) contains 5 %}y{% endif %}', 'range_limit', /1000000000 items/],
    [
      'a string grown in a loop',
      '{% assign s = "xxxxxxxxxx" %}{% for i in (1..100000) %}{% assign s = s | append: s %}{% endfor %}',
      'memory_limit',
      /memory/,
    ],
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
    const ranges = new Renderer({ rangeLimit: 10 });
    expect(await ranges.renderBlock(input('{{ (1..10) | join: "" }}'))).toBe('12345678910');
    await expect(ranges.renderBlock(input('{{ (1..11) | join: "" }}'))).rejects.toMatchObject({
      reason: 'range_limit',
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

  it('renders ranges up to the limit as LiquidJS does, wherever they stand', async () => {
    const render = (template: string, values: Record<string, unknown> = {}) =>
      renderer.renderBlock({
        revisionId: nextRevision++,
        template,
        values,
        slots: {},
        blockType: 'schema',
        richtextFields: [],
      });
    expect(await render('{% for i in (1..3) %}{{ i }}{% endfor %}')).toBe('123');
    expect(await render('{% for i in (from..to) %}{{ i }}{% endfor %}', { from: 2, to: 4 })).toBe('234');
    expect(await render('{{ (1..100000) | size }}')).toBe('100000');
    expect(await render('{% if (1..5) contains 3 %}yes{% endif %}')).toBe('yes');
    expect(await render('{% for i in (1..4) %}{{ i }}{% if i == 2 %}{% break %}{% endif %}{% endfor %}')).toBe('12');
    // `continue` remembers a loop by its collection's text: the wrapped range keeps it.
    expect(
      await render(
        '{% for i in (1..6) limit: 2 %}{{ i }}{% endfor %},{% for i in (1..6) offset: continue %}{{ i }}{% endfor %}',
      ),
    ).toBe('12,3456');
    expect(await render('{% tablerow i in (1..2) %}{{ i }}{% endtablerow %}')).toContain('<td class="col2">2</td>');
    expect(await render('{% assign low = "a" %}{{ (low..3) | size }}')).toBe('0');
  });

  it('keeps rendering after hostile templates', async () => {
    await failure('{% for i in (1..100000000) %}x{% endfor %}');
    await failure('{% assign n = 20000000 %}{% for i in (1..n) %}x{% endfor %}');
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
