export { renderMarkdown } from './markdown.js';
export { sanitizeRichText } from './sanitize.js';
export {
  DEFAULT_RENDERER_OPTIONS,
  RenderError,
  Renderer,
  previewDocument,
  type BlockRenderInput,
  type BlockType,
  type PageBlockInput,
  type RenderFailure,
  type RenderedPage,
  type RendererOptions,
} from './renderer.js';
