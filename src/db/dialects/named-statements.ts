/**
 * SQL texts that PostgreSQL runs as named prepared statements, on whichever
 * connection runs them (a transaction's, a dry run's, the pool's): parsed and
 * planned once a connection instead of at every call. For long statements run
 * often, whose text does not depend on their parameters: a new page's one
 * statement spent about a quarter of its backend time planning. Kept in this
 * module, free of the driver, so that a repository can name its statement
 * whichever database is open; only PostgreSQL's connections read it.
 */
const names = new Map<string, string>();

/** `text`, registered to run as a named prepared statement on PostgreSQL. */
export function namedStatement(text: string): string {
  if (!names.has(text)) names.set(text, `pb_write_${names.size}`);
  return text;
}

/** The name under which `text` is prepared, when it was registered. */
export const statementName = (text: string): string | undefined => names.get(text);
