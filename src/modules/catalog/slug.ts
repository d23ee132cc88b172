/** A slug: lowercase letters and digits in words joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// Tag names are often Russian: "Новости" gives "novosti" rather than nothing.
const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'sch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  і: 'i',
  ї: 'yi',
  є: 'ye',
  ґ: 'g',
};

/**
 * The slug of a name: lowercase, accents dropped, Cyrillic transliterated,
 * every other run of characters a single hyphen. '' when nothing is left.
 */
export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      // Before NFKD, which would split "й" into "и" and a breve.
      .replace(/[\u0400-\u04ff]/g, (c) => CYRILLIC[c] ?? '')
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 255)
      .replace(/-+$/, '')
  );
}
