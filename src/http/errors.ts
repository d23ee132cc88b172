import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, type ErrorKind, type FieldError } from '../shared/errors.js';
import { etagOf } from './if-match.js';
import { toFieldErrors } from './validation.js';

const STATUS: Record<ErrorKind, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  too_large: 413,
  rate_limited: 429,
  bad_gateway: 502,
  precondition_failed: 412,
};

// The code of an entry that names none: what its error as a whole is.
const DEFAULT_CODE: Record<ErrorKind, ErrorCode> = {
  validation: 'invalid',
  unauthenticated: 'invalid',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  unprocessable: 'invalid',
  too_large: 'too_large',
  rate_limited: 'invalid',
  bad_gateway: 'invalid',
  precondition_failed: 'conflict',
};

/** Every entry has a `code`; `path` and `message` come first. */
const withCodes = (errors: readonly FieldError[], fallback: ErrorCode) =>
  errors.map(({ path, message, code, ...rest }) => ({ path, message, code: code ?? fallback, ...rest }));

// Fastify's own client errors, in words an integrator can act on.
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty but Content-Type says JSON: send '{}' or no Content-Type.",
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type: send application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body.',
};

/** Where a 412 went wrong: the header that named another version. */
const staleAt = (current: number): FieldError[] => [
  {
    path: 'If-Match',
    message: `The object is at version ${current} (${etagOf(current)}).`,
    code: 'conflict',
    expected: etagOf(current),
  },
];

function send(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  // Error bodies are always plain JSON, whatever the route's own type was.
  return reply.status(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}

export function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    // An outside system failed (storage, provider): the operator needs its cause.
    if (STATUS[error.kind] >= 500) request.log.error({ err: error, cause: error.cause }, 'upstream failure');
    const retryAfter = error.details?.retry_after;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    // A 412 names the version the object is at, as its reads do.
    const current = error.kind === 'precondition_failed' ? error.details?.current_version : undefined;
    if (typeof current === 'number') reply.header('etag', etagOf(current));
    const errors = error.errors ?? (typeof current === 'number' ? staleAt(current) : undefined);
    return send(reply, STATUS[error.kind], {
      error: error.message,
      ...(errors && { errors: withCodes(errors, DEFAULT_CODE[error.kind]) }),
      ...error.details,
    });
  }
  const fastifyError = error;
  if (fastifyError.validation) {
    const errors = toFieldErrors(fastifyError.validation);
    return send(reply, 400, { error: 'The request is not valid: see errors[].', errors });
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return send(reply, 400, {
      error: FRAMEWORK_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY!,
      errors: [{ path: 'root', message: error.message, code: 'invalid' }],
    });
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return send(reply, status, { error: FRAMEWORK_MESSAGES[fastifyError.code ?? ''] ?? fastifyError.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(reply, 500, { error: 'Internal server error.', request_id: request.id });
}

/**
 * Unknown path → JSON 404; known path with another method → JSON 405 with
 * `Allow`; a browser's navigation to a route of the web app → the app.
 */
export function registerNotFound(
  app: FastifyInstance,
  allowedMethods: (path: string) => string[],
  webApp: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>,
) {
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = allowedMethods(path);
    // A route of this method that found nothing (a missing upload) is a 404, not a 405.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (allowed.length > 0 && !allowed.includes(method)) {
      reply.header('allow', allowed.join(', '));
      return send(reply, 405, {
        error: `Method ${request.method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`,
      });
    }
    if (await webApp(request, reply)) return reply;
    return send(reply, 404, { error: `No route ${request.method} ${path}.` });
  });
}
