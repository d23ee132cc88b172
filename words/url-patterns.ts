/**
 * Where a link or an image may point: http(s), or a relative reference (no
 * scheme: no `:` before the first `/`, `?` or `#`). Anything else
 * (`javascript:`, `vbscript:`, `data:`) would run or embed code once a template
 * writes it into `href` or `src`. Letter classes instead of a flag, so that
 * every engine reads the published schema the same way.
 */
export const SAFE_IMAGE_URL = '^([hH][tT][tT][pP][sS]?:|[^:/?#]*([/?#]|$))';
/** As {@link SAFE_IMAGE_URL}, and also `mailto:` and `tel:` links. */
export const SAFE_LINK_URL = '^([hH][tT][tT][pP][sS]?:|[mM][aA][iI][lL][tT][oO]:|[tT][eE][lL]:|[^:/?#]*([/?#]|$))';
