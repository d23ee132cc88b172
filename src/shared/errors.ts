/**
 * The error catalogue. Services throw these; they know nothing of HTTP. The
 * HTTP layer maps each `kind` to a status code in one place (http/errors.ts).
 */
/**
 * A stable machine word for what is wrong at a place, so that a program (an AI
 * agent above all) can act without parsing the human message.
 */
export const ERROR_CODES = [
  'required',
  'type',
  'enum',
  'unknown_key',
  'not_allowed',
  'blank',
  'too_long',
  'too_short',
  'too_large',
  'too_small',
  'too_many',
  'too_few',
  'pattern',
  'format',
  'not_unique',
  'conflict',
  'not_found',
  'forbidden',
  'invalid',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What a field error can say beyond its message. */
export interface FieldErrorDetail {
  code?: ErrorCode;
  /** Where it helps: the type, the allowed values, the limit. */
  expected?: unknown;
  /** A near miss: "did you mean `name`?". */
  hint?: string;
  /** In a text (a template): the 1-based line and column where it goes wrong. */
  line?: number;
  column?: number;
}

export interface FieldError extends FieldErrorDetail {
  /** Dot-path into the request body (`blocks[0].placeholder_values.title`), a root field name, or `root`. */
  path: string;
  message: string;
}

export type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'too_large'
  | 'rate_limited'
  | 'bad_gateway'
  | 'precondition_failed';

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly errors: FieldError[] | undefined;
  /** Extra top-level fields of the error body (e.g. `current_pin` of a blocked upgrade). */
  readonly details: Record<string, unknown> | undefined;
  /**
   * An outside system failed in a way a later try may not meet (a 5xx, a 429,
   * a time-out, unreachable): work done later (a scheduled publication) tries
   * again; a refusal (a 4xx) is not tried again.
   */
  readonly transient: boolean;

  constructor(
    kind: ErrorKind,
    message: string,
    options: { errors?: FieldError[]; details?: Record<string, unknown>; cause?: unknown; transient?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.errors = options.errors;
    this.details = options.details;
    this.transient = options.transient ?? false;
  }
}

export const validationError = (message: string, errors: FieldError[]) =>
  new AppError('validation', message, { errors });

export const fieldError = (path: string, message: string, detail: FieldErrorDetail = {}) =>
  new AppError('validation', message, { errors: [{ path, message, ...detail }] });

export const notFound = (message: string, errors?: FieldError[]) =>
  new AppError('not_found', message, errors ? { errors } : {});

export const forbidden = (message: string) => new AppError('forbidden', message);

export const unauthenticated = (message: string) => new AppError('unauthenticated', message);

export const conflict = (message: string, errors?: FieldError[]) =>
  new AppError('conflict', message, errors ? { errors } : {});

export const unprocessable = (message: string, errors?: FieldError[]) =>
  new AppError('unprocessable', message, errors ? { errors } : {});

/** More bytes than a limit or a quota allows (413), at the path of what carried them. */
export const tooLarge = (path: string, message: string, detail: FieldErrorDetail = {}) =>
  new AppError('too_large', message, { errors: [{ path, message, code: 'too_large', ...detail }] });

export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', message, { details: { retry_after: retryAfterSeconds } });

/** An outside system failed; `cause` is logged with the answer, never sent. */
export const badGateway = (message: string, cause?: unknown, transient = false) =>
  new AppError('bad_gateway', message, { cause, transient });

/**
 * The versions a write was told to expect (`If-Match`, MCP `expected_version`):
 * the write goes through only while the object is at one of them. Undefined:
 * no condition, the write goes through as it always did.
 */
export type ExpectedVersions = readonly number[] | undefined;

/** Whether an object at `current` may be written under `expected`. */
export const versionHolds = (expected: ExpectedVersions, current: number) =>
  expected === undefined || expected.includes(current);

/**
 * A write whose expected version is no longer the object's (412): someone
 * else changed it since the caller read it. `error` is a code, as in a
 * blocked major upgrade; `current_version` says where the object stands.
 */
export const versionConflict = (what: string, current: number) =>
  new AppError('precondition_failed', 'version_conflict', {
    details: {
      message:
        `${what} is at version ${current}, not the one this write expected: someone else changed it. ` +
        'Read it again and apply your change on top.',
      current_version: current,
    },
  });
