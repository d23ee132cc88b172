import { Type, type TSchema } from 'typebox';

/**
 * Every environment variable the service reads, in one TypeBox schema. Each
 * entry's `description` is what an operator reads when a value is refused, so
 * it names the allowed values, not the reason they exist.
 */
function oneOf(values: readonly string[]) {
  return Type.Optional(
    Type.Union(
      values.map((value) => Type.Literal(value)),
      { description: `one of ${values.join(', ')}` },
    ),
  );
}

function matching(pattern: RegExp, description: string) {
  return Type.Optional(Type.String({ pattern: pattern.source, description }));
}

export const BOOLEAN_VALUES = ['1', '0', 'true', 'false', 'yes', 'no'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const anything = (description: string) => Type.Optional(Type.String({ description }));
const boolean = () => oneOf(BOOLEAN_VALUES);
const httpUrl = () => matching(/^https?:\/\/[^\s/?#]+[^\s]*$/, 'an http(s) URL');

export const envSchema = Type.Object({
  HOST: matching(/^\S+$/, 'a host name or address'),
  PORT: matching(/^(0|[1-9][0-9]{0,4})$/, 'an integer 0..65535'),
  PUBLIC_URL: httpUrl(),
  DATA_DIR: anything('a directory'),
  DATABASE_URL: matching(/^postgres(ql)?:\/\/\S+$/, 'a postgres:// URL'),
  DATABASE_SCHEMA: matching(/^[a-z_][a-z0-9_]{0,62}$/, 'a PostgreSQL schema name (a-z, 0-9, _)'),
  ADMIN_EMAIL: matching(/^[^\s@]+@[^\s@]+$/, 'an email address'),
  ADMIN_PASSWORD: matching(/^[\s\S]{8,}$/, 'at least 8 characters'),
  REGISTRATION: oneOf(['open', 'closed']),
  STORAGE: oneOf(['local', 's3']),
  S3_ENDPOINT: httpUrl(),
  S3_BUCKET: matching(/^[a-zA-Z0-9.\-_]{1,255}$/, 'a bucket name'),
  S3_REGION: matching(/^[a-z0-9-]+$/, 'a region name such as us-east-1'),
  S3_ACCESS_KEY_ID: anything('the access key id'),
  S3_SECRET_ACCESS_KEY: anything('the secret access key'),
  S3_PUBLIC_URL: httpUrl(),
  UPLOAD_QUOTA_MB: matching(/^[1-9][0-9]{0,6}$/, 'a whole number of MB, 1 to 9999999'),
  PAGE_JSON_LIMIT_KB: matching(/^[1-9][0-9]{0,6}$/, 'a whole number of KiB, 1 to 9999999'),
  PAGE_CACHE_MB: matching(/^(0|[1-9][0-9]{0,5})$/, 'a whole number of MB, 0 (keep no page answers) to 999999'),
  UPLOADS_IN_FLIGHT: matching(/^[1-9][0-9]{0,2}$/, 'a whole number, 1 to 999'),
  PAGE_HISTORY_LIMIT: matching(/^[1-9][0-9]{0,5}$/, 'a whole number of versions, 1 to 999999'),
  JOB_RETRY_LIMIT: matching(/^[0-9]{1,2}$/, 'a whole number of tries after the first, 0 to 99'),
  JOB_RETRY_DELAY_SECONDS: matching(/^[1-9][0-9]{0,5}$/, 'a whole number of seconds, 1 to 999999'),
  JOB_POLL_SECONDS: matching(/^([1-9][0-9]{0,3}|0\.[5-9][0-9]?)$/, 'seconds, 0.5 to 9999'),
  WEBHOOK_DISABLE_AFTER: matching(/^[1-9][0-9]{0,3}$/, 'a whole number of deliveries, 1 to 9999'),
  WEBHOOK_TIMEOUT_SECONDS: matching(/^[1-9][0-9]{0,2}$/, 'a whole number of seconds, 1 to 999'),
  PROVIDER_ALLOW_PRIVATE: boolean(),
  LOG_LEVEL: oneOf(LOG_LEVELS),
  CORS_ORIGINS: matching(
    /^(\*|https?:\/\/[^\s,]+(,\s*https?:\/\/[^\s,]+)*)$/,
    '* or a comma-separated list of http(s) origins',
  ),
  METRICS: boolean(),
  METRICS_TOKEN: matching(/^\S{16,}$/, 'a token of at least 16 characters without spaces'),
  WEB_DIR: anything('the directory of the built web app'),
  TRUST_PROXY: matching(
    /^(false|[0-9]{1,2}|[^\s,]+(,\s*[^\s,]+)*)$/,
    "false, the number of proxies in front (1 for one nginx), or a comma-separated list of the proxies' addresses and CIDR ranges (or loopback, linklocal, uniquelocal)",
  ),
});

export type EnvName = keyof typeof envSchema.properties;

/** The description an operator reads for a refused variable. */
export function allowedValues(name: string): string | undefined {
  const property = (envSchema.properties as Record<string, TSchema | undefined>)[name];
  return property && 'description' in property ? String(property.description) : undefined;
}
