/*
 * PostgreSQL writes a jsonb value as text of its own: a space after every ':'
 * and ',' outside strings, and each number as its numeric keeps it. An answer
 * wants JSON.stringify's form of the value. For a value JavaScript wrote (every
 * value the service stores), that is the same text without those spaces; only a
 * number JavaScript would write otherwise (from 1e21, under 1e-6, sixteen digits
 * and more, a fraction ending in 0: stored by plain SQL), or an object with an
 * integer key (JavaScript lists those first), needs the text parsed and written
 * again. Parsing and writing every value was a twentieth of a page
 * read on PostgreSQL.
 */

// A string (kept as it is: the unrolled loop, so that a long one never backtracks) or a spaced separator.
const STRING_OR_SPACED = /("[^"\\]*(?:\\.[^"\\]*)*")|([,:]) /g;
// May also match inside a string: then the slow way, which answers the same. An
// integer key ("0": JavaScript puts those first, jsonb by length) reorders the object.
const UNLIKE_JAVASCRIPT = /\d{16}|\.0{6}|\.\d*0(?!\d)|"(?:0|[1-9]\d*)":/;

/** jsonb's text (or text made of jsonb texts and JSON without spaces) in JSON.stringify's form. */
export function compactJsonbText(text: string): string {
  if (UNLIKE_JAVASCRIPT.test(text)) return JSON.stringify(JSON.parse(text));
  return text.replace(STRING_OR_SPACED, '$1$2');
}
