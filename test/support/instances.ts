/**
 * A page's HTML without the element each instance is laid out in
 * (`<pb-instance data-pb-rev="R" style="display:contents">…</pb-instance>`, see
 * src/rendering/scope-css.ts), for tests about what the blocks themselves make.
 * The tests of the wrapper itself assert it whole.
 */
export const unwrapInstances = (html: string): string =>
  html.replace(/<pb-instance data-pb-rev="\d+" style="display:contents">/g, '').replace(/<\/pb-instance>/g, '');
