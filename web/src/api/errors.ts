/** The service's error body: `error` always, `errors[]` where the error has a place. */
export interface FieldError {
  path: string;
  message: string;
}

/** A non-2xx answer of the service, thrown by `unwrap` so that TanStack Query sees a failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldError[];
  /** Seconds from `Retry-After` (429), when the service sent one. */
  readonly retryAfter: number | undefined;
  /** The whole body, for errors that carry more (e.g. `removed_fields` of a blocked major upgrade). */
  readonly body: unknown;

  constructor(status: number, body: unknown, retryAfter?: number) {
    const conflict = isVersionConflict(status, body);
    super(conflict ? VERSION_CONFLICT_MESSAGE : messageOf(body, status));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    // Its one place is the If-Match header, which nobody filled in by hand: the sentence says it all.
    this.errors = conflict ? [] : fieldErrorsOf(body);
    this.retryAfter = retryAfter;
  }
}

/** A write refused because what it changes was changed elsewhere since it was read (412 `version_conflict`). */
export const VERSION_CONFLICT_MESSAGE =
  'This was changed elsewhere after you opened it (in another tab, or by someone else). ' +
  'Your change was not saved, and nothing of theirs was overwritten.';

const isVersionConflict = (status: number, body: unknown) =>
  status === 412 &&
  typeof body === 'object' &&
  body !== null &&
  (body as { error?: unknown }).error === 'version_conflict';

function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof message === 'string' && typeof error === 'string' && !error.includes(' ')) return message;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
  }
  return status >= 500 ? 'The service failed. Try again in a moment.' : `Request failed (${status}).`;
}

const isFieldError = (e: unknown): e is FieldError =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as { path?: unknown }).path === 'string' &&
  typeof (e as { message?: unknown }).message === 'string';

function fieldErrorsOf(body: unknown): FieldError[] {
  const found: unknown = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  const errors: unknown[] = Array.isArray(found) ? found : [];
  return errors.filter(isFieldError);
}

/**
 * Sentences of the service that speak to API clients (an instance's or a
 * revision's id, an API path), in a person's words: the interface names no
 * internal id and no API path (the API keeps them, for its clients).
 */
const FOR_PEOPLE: [RegExp, string][] = [
  [/^Sign-in required: POST \/api\/auth\/login first\.?$/, 'You are signed out. Sign in again to go on.'],
  [/^The template of block \d+ \(revision \d+\) cannot be rendered/, 'The template cannot be rendered'],
  [/^Block \d+ \(revision \d+\) cannot be rendered/, 'A block on this page cannot be rendered'],
  [/^Block revision \d+ cannot be rendered/, 'A block cannot be rendered'],
  [/^Instance \d+ cannot take version/, 'This block cannot take version'],
  [/^Block \d+ was deleted since version (\d+)/, 'A block was deleted from the library since version $1'],
];

/** One of the service's sentences as a person reads it (see FOR_PEOPLE). */
export function forPeople(message: string): string {
  for (const [pattern, words] of FOR_PEOPLE) if (pattern.test(message)) return message.replace(pattern, words);
  return message;
}

/**
 * An `errors[]` entry as a person reads it: a block's values and a source's
 * params are named by their label in the message itself ("Heading is
 * required."); another place by its key in words ("Slug: …"), never its path.
 */
export function placedMessage({ path, message }: FieldError): string {
  const text = forPeople(message);
  if (path === 'root' || /(^|\.)(placeholder_values|params)(\.|\[|$)/.test(path)) return text;
  const key = path
    .split(/[.[\]]+/)
    .filter((part) => part && !/^\d+$/.test(part))
    .pop();
  if (!key) return text;
  const words = key.replace(/[_-]+/g, ' ').trim();
  return `${words[0]!.toUpperCase()}${words.slice(1)}: ${text}`;
}

/** A network failure or anything unexpected, as one sentence for the user. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return readable(error);
  if (error instanceof TypeError) return 'The service cannot be reached. Check your connection and try again.';
  return error instanceof Error ? error.message : String(error);
}

/**
 * The service's message for people: "see errors[]" speaks to API clients, so
 * where the answer has them, the places and their messages take its place.
 */
function readable({ message, errors }: ApiError): string {
  if (!message.includes('see errors[]') || errors.length === 0) return forPeople(message);
  const listed = errors.map(placedMessage).join(' ');
  return `${forPeople(message).replace(/:?\s*see errors\[\]\.?/, '.')} ${listed}`;
}
