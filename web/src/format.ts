const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A service timestamp for people; `never` for a null one (e.g. a key never used). */
export function formatDateTime(value: string | null | undefined, never = 'Never'): string {
  if (!value) return never;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}
