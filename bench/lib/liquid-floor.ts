import { Liquid, type Template } from 'liquidjs';

/** B3's floor: LiquidJS alone (synchronous, as the renderer), the same templates parsed once, the same values, concatenated. */
export async function liquidFloorMs(
  blocks: Array<{ template: string; values: Record<string, unknown> }>,
  runs: number,
): Promise<number> {
  const engine = new Liquid({ outputEscape: 'escape' });
  const parsed = new Map<string, Template[]>();
  for (const b of blocks) if (!parsed.has(b.template)) parsed.set(b.template, engine.parse(b.template));
  const render = async () => {
    const parts: string[] = [];
    for (const b of blocks) parts.push(engine.renderSync(parsed.get(b.template)!, b.values));
    return parts.join('\n');
  };
  for (let i = 0; i < 5; i++) await render();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await render();
  return (performance.now() - started) / runs;
}
