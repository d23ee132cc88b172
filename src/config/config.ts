/**
 * Environment → typed configuration, validated once at start so that a wrong
 * setting stops the service at boot instead of failing at the first request.
 */
export interface StorageConfig {
  driver: 'local' | 's3';
  s3?: {
    endpoint: string | undefined;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    publicUrl: string | undefined;
  };
}

export interface Config {
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL only: the schema to work in (tests isolate themselves with it). */
  databaseSchema: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  registration: 'open' | 'closed';
  storage: StorageConfig;
  providerAllowPrivate: boolean;
  logLevel: string;
  /** Largest JSON body accepted, in bytes. */
  bodyLimit: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name];
  if (!value) throw new ConfigError(`${name} is required when STORAGE=s3`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = env[name] ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

function port(env: Env): number {
  const raw = env.PORT ?? '3000';
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`PORT must be an integer 0..65535 (got "${raw}")`);
  }
  return value;
}

function url(name: string, raw: string): string {
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  }
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST ?? '127.0.0.1';
  const listenPort = port(env);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  }
  const adminEmail = env.ADMIN_EMAIL || undefined;
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (Boolean(adminEmail) !== Boolean(adminPassword)) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD are set together or not at all');
  }
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD must have at least 8 characters');
  }
  const driver = oneOf(env, 'STORAGE', ['local', 's3'] as const, 'local');
  const storage: StorageConfig = { driver };
  if (driver === 's3') {
    storage.s3 = {
      endpoint: env.S3_ENDPOINT || undefined,
      bucket: required(env, 'S3_BUCKET'),
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: required(env, 'S3_ACCESS_KEY_ID'),
      secretAccessKey: required(env, 'S3_SECRET_ACCESS_KEY'),
      publicUrl: env.S3_PUBLIC_URL ? url('S3_PUBLIC_URL', env.S3_PUBLIC_URL) : undefined,
    };
  }
  return {
    host,
    port: listenPort,
    publicUrl: url('PUBLIC_URL', env.PUBLIC_URL ?? `http://${host}:${listenPort}`),
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    adminEmail,
    adminPassword,
    registration: oneOf(env, 'REGISTRATION', ['open', 'closed'] as const, 'open'),
    storage,
    providerAllowPrivate: env.PROVIDER_ALLOW_PRIVATE === '1',
    logLevel: env.LOG_LEVEL ?? 'info',
    bodyLimit: 10 * 1024 * 1024,
  };
}
