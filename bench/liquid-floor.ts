/**
 * B3's floor, in a process of its own (started by `bench/lib/liquid-floor.ts`,
 * pinned to the server's core with the service's Node flags): LiquidJS alone,
 * synchronous as the renderer, the page's templates parsed once, the same
 * values, the blocks' HTML joined. Told the blocks, it warms up and says
 * `ready`; then each `render` renders the page once and answers its wall-clock
 * and CPU time (every thread of this process), in milliseconds.
 */
import { Liquid, type Template } from 'liquidjs';

type Message = { blocks: Array<{ template: string; values: Record<string, unknown> }>; warmUp: number } | 'render';

const engine = new Liquid({ outputEscape: 'escape' });
let page: Array<{ template: Template[]; values: Record<string, unknown> }> = [];
const render = () => page.map((b) => engine.renderSync(b.template, b.values)).join('\n');

process.on('message', (message: Message) => {
  if (message === 'render') {
    const started = performance.now();
    const cpu = process.cpuUsage();
    render();
    const used = process.cpuUsage(cpu);
    process.send!({ wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 });
    return;
  }
  const parsed = new Map<string, Template[]>();
  for (const b of message.blocks) if (!parsed.has(b.template)) parsed.set(b.template, engine.parse(b.template));
  page = message.blocks.map((b) => ({ template: parsed.get(b.template)!, values: b.values }));
  for (let i = 0; i < message.warmUp; i++) render();
  process.send!('ready');
});
