/**
 * A revision's CSS made to apply to its own instances alone. Every instance on
 * a page sits in `<pb-instance data-pb-rev="R">` (`wrapInstance`), so each
 * top-level rule of revision R gains `:where([data-pb-rev="R"])` before its
 * selectors: two instances of one block at two revisions each look like their
 * own revision, whatever order their CSS comes in. `:where()` adds no
 * specificity, so a rule weighs against the page's other CSS as it did before.
 * Parsed with postcss (selectors with postcss-selector-parser, animation
 * values with postcss-value-parser): CSS is a language, never cut with
 * regular expressions.
 */
import postcss, { type AtRule, type ChildNode, type Container, type Rule } from 'postcss';
import selectorParser from 'postcss-selector-parser';
import valueParser from 'postcss-value-parser';
import { CrossRequestCache } from '../shared/cross-request-cache.js';

/** The attribute naming an instance's revision, on its wrapper. */
export const SCOPE_ATTRIBUTE = 'data-pb-rev';

/**
 * An instance's HTML in the element that scopes its revision's CSS. A custom
 * element (`pb-instance`): unlike a `div`, the HTML parser never lets it close an
 * open `<p>`; `display: contents` keeps it out of the layout (a flex or grid
 * parent lays out the instance's own elements), and inherited properties still
 * pass through it.
 */
export const wrapInstance = (revisionId: number, html: string) =>
  `<pb-instance ${SCOPE_ATTRIBUTE}="${revisionId}" style="display:contents">${html}</pb-instance>`;

/** Characters `wrapInstance` adds around an instance's HTML (for the page's size bound). */
export const wrapperLength = (revisionId: number) => wrapInstance(revisionId, '').length;

/** At-rules whose rules are selectors of the page, scoped like top-level ones. */
const GROUPING = new Set(['media', 'supports', 'layer', 'container', 'scope', 'document', '-moz-document']);
/** Compounds that name the document itself: the scope goes after them (`body.dark .x` → `body.dark :where(…) .x`). */
const DOCUMENT_TAGS = new Set(['html', 'body']);
const KEYFRAMES = new Set(['keyframes', '-webkit-keyframes', '-moz-keyframes']);
const ANIMATION_PROPERTIES = new Set(['animation', 'animation-name', '-webkit-animation', '-webkit-animation-name']);

function namesTheDocument(compound: selectorParser.Node[]): boolean {
  return compound.some(
    (node) =>
      (node.type === 'tag' && DOCUMENT_TAGS.has(node.value.toLowerCase())) ||
      (node.type === 'pseudo' && node.value.toLowerCase() === ':root'),
  );
}

/** `selector` with `:where([data-pb-rev="R"])` as an ancestor of what it selects. */
function scopeSelector(selector: selectorParser.Selector, revisionId: number): void {
  const scope = selectorParser.pseudo({ value: ':where' });
  scope.append(
    selectorParser.selector({ value: '', nodes: [] }).append(
      selectorParser.attribute({
        attribute: SCOPE_ATTRIBUTE,
        operator: '=',
        value: `"${revisionId}"`,
        quoteMark: '"',
        raws: {},
      }),
    ),
  );
  const nodes = selector.nodes;
  // After every leading compound that names the document (with the combinator that follows it).
  let at = 0;
  for (;;) {
    let end = at;
    while (end < nodes.length && nodes[end]!.type !== 'combinator') end++;
    if (end === at || end >= nodes.length || !namesTheDocument(nodes.slice(at, end))) break;
    at = end + 1;
  }
  const documentOnly = at === 0 && nodes.length > 0 && namesTheDocument(nodes);
  const descendant = () => selectorParser.combinator({ value: ' ' });
  if (documentOnly) {
    // `body { … }` alone: the rule goes to the wrapper, whose children inherit it.
    selector.append(descendant());
    selector.append(scope);
    return;
  }
  const before = nodes[at];
  if (before === undefined) {
    selector.append(scope);
    return;
  }
  // The space before the selector (after a list's comma) goes before the scope.
  scope.spaces.before = before.spaces.before;
  before.spaces.before = '';
  selector.insertBefore(before, scope);
  selector.insertBefore(before, descendant());
}

function insideStyleRule(node: ChildNode): boolean {
  let parent: postcss.Node | undefined = node.parent;
  for (; parent && parent.type !== 'root'; parent = parent.parent as postcss.Node | undefined)
    if (parent.type === 'rule') return true;
  return false;
}

/**
 * The revision's CSS scoped to its instances, its `@keyframes` renamed to be
 * its own (`fade` → `fade-pb-r12`, and every `animation` of this CSS naming it).
 * CSS that does not parse is left out with a comment saying why: unscoped it
 * would reach every instance of the page, and a browser would have dropped
 * what follows the error anyway.
 */
export function scopeCss(css: string, revisionId: number): string {
  if (css.trim() === '') return '';
  let root: postcss.Root;
  try {
    root = postcss.parse(css);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    return `/* revision ${revisionId}: its CSS does not parse and was left out (${reason.replace(/\*\//g, '* /')}) */`;
  }
  const keyframes = new Map<string, string>();
  root.walkAtRules((rule: AtRule) => {
    if (!KEYFRAMES.has(rule.name.toLowerCase())) return;
    const name = rule.params.trim();
    const own = `${name}-pb-r${revisionId}`;
    keyframes.set(name, own);
    rule.params = own;
  });
  const visit = (container: Container) => {
    container.each((node) => {
      if (node.type === 'rule') {
        if (insideStyleRule(node)) return;
        scopeRule(node, revisionId);
      } else if (node.type === 'atrule' && GROUPING.has(node.name.toLowerCase()) && node.nodes) visit(node);
    });
  };
  visit(root);
  if (keyframes.size > 0)
    root.walkDecls((decl) => {
      if (!ANIMATION_PROPERTIES.has(decl.prop.toLowerCase())) return;
      const value = valueParser(decl.value);
      value.walk((part) => {
        if (part.type === 'word' && keyframes.has(part.value)) part.value = keyframes.get(part.value)!;
      });
      decl.value = valueParser.stringify(value.nodes);
    });
  return root.toString();
}

function scopeRule(rule: Rule, revisionId: number): void {
  rule.selector = selectorParser((selectors) => {
    selectors.each((selector) => scopeSelector(selector, revisionId));
  }).processSync(rule.selector, { lossless: true });
}

/**
 * Scoped CSS by revision id (parsing a page's CSS at every render would cost
 * each preview), checked against the CSS it was made from: SQLite hands a
 * rolled-back revision's id out again, so an id alone may name other CSS.
 */
export class ScopedCss {
  readonly #kept = new CrossRequestCache<number, { css: string; scoped: string }>({
    budget: 4 * 1024 * 1024,
    weigh: (entry) => 2 * (entry.css.length + entry.scoped.length) + 64,
  });

  of(revisionId: number, css: string): string {
    const kept = this.#kept.get(revisionId);
    if (kept !== undefined && kept.css === css) return kept.scoped;
    const scoped = scopeCss(css, revisionId);
    this.#kept.set(revisionId, { css, scoped });
    return scoped;
  }
}
