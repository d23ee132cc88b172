import { closest, distance } from 'fastest-levenshtein';

// Words an agent reaches for by habit; an edit distance would not find them.
const SYNONYMS: Record<string, string[]> = {
  name: ['title', 'label', 'page_name', 'pagename'],
  limit: ['count', 'size', 'per_page', 'max', 'take', 'n', 'number'],
  sort: ['order', 'order_by', 'sort_by', 'orderby', 'sortby'],
  category_id: ['category', 'rubric', 'rubric_id'],
  placeholder_values: ['values', 'placeholders', 'fields', 'props', 'data'],
};

/** `siteId`, `Site-Id` and `site id` all read as `site_id`. */
const normalise = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .toLowerCase();

const isSynonym = (guess: string, target: string) => SYNONYMS[target]?.includes(normalise(guess)) ?? false;

/**
 * The allowed word closest to a guessed one: a known synonym, the same word in
 * another case style, or the nearest by edit distance when it is near enough to
 * be a typo. `undefined` when nothing is close.
 */
export function nearMiss(guess: string, allowed: readonly string[]): string | undefined {
  if (allowed.length === 0) return undefined;
  const synonym = allowed.find((word) => isSynonym(guess, word));
  if (synonym) return synonym;
  const normal = normalise(guess);
  const same = allowed.find((word) => normalise(word) === normal);
  if (same) return same;
  const best = closest(normal, allowed.map(normalise));
  const index = allowed.map(normalise).indexOf(best);
  return distance(normal, best) <= Math.max(1, Math.floor(best.length / 3)) ? allowed[index] : undefined;
}

/**
 * For a missing key: the sent key that was probably meant (`title` for `name`).
 * A synonym or a near spelling first; failing that, the only unexpected key
 * when exactly one was sent.
 */
export function meantFor(missing: string, unexpected: readonly string[]): string | undefined {
  const found = unexpected.find((key) => nearMiss(key, [missing]) === missing);
  if (found) return found;
  return unexpected.length === 1 ? unexpected[0] : undefined;
}
