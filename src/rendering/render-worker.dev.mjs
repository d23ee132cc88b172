// The render thread when the service runs from source (tsx, vitest): worker threads do not
// inherit the parent's TypeScript loader, so register tsx's here. The build bundles
// render-worker.ts itself, and never uses this file.
import { register } from 'tsx/esm/api';

register();
const { default: render, outline, migrate } = await import('./render-worker.ts');
export default render;
export { outline, migrate };
