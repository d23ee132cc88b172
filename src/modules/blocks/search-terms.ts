/** Words of a search query as both engines tokenise them (letters and digits, lower case). */
export function searchTerms(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);
}
