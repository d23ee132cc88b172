import { getHeapStatistics } from 'node:v8';
import { compile as compileTrust } from '@fastify/proxy-addr';
import { Value } from 'typebox/value';
import { allowedValues, envSchema, type LOG_LEVELS } from './env.schema.js';

/**
 * Environment → typed configuration, validated once at start against one schema (env.schema.ts) so that a wrong
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
  /**
   * Per user: the bytes their stored uploads may take in all, and how many of
   * their uploads may be received at once (per instance: what it bounds is
   * this process's disk, sockets and loop).
   */
  uploads: { quotaBytes: number; inFlight: number };
  /**
   * A page's JSON (its fields, and each instance's block, values and
   * bindings), in bytes: every write after which a page would be over it is a
   * 422 at the place that takes it over.
   */
  pageJsonLimit: number;
  /**
   * Bytes of kept `GET /pages/{id}` answers (PAGE_CACHE_MB; 0 keeps none). By
   * default a sixteenth of the process's heap limit (`--max-old-space-size`,
   * which Node sizes to the machine's or container's memory): 256 MB of a 4 GB
   * heap. The bodies are Buffers, outside the heap, but its limit is the
   * process's own measure of the memory it may use.
   */
  pageCacheBytes: number;
  providerAllowPrivate: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Origins allowed to call `/api/v1` from a browser; empty: CORS off. `*` allows any. */
  corsOrigins: string[];
  /** `/metrics`: off unless enabled; without a token only from the listen address. */
  metrics: { enabled: boolean; token: string | undefined };
  /** The built browser app (index.html and assets/), served at `/`. */
  webDir: string;
  /**
   * Whose `X-Forwarded-For` to believe for the client address (the login and
   * registration throttles key on it, `/metrics` refuses what came through a
   * proxy): false (default, the socket's peer), a hop count (that many proxies
   * in front, each trusted whatever its address), or the proxies' addresses
   * and ranges. Never "any": see `trustProxy()`.
   */
  trustProxy: false | number | string[];
  /** Largest JSON body accepted, in bytes. */
  bodyLimit: number;
  /** The most versions a page keeps (its published ones besides): PAGE_HISTORY_LIMIT, 100 by default. */
  pageHistoryLimit: number;
  /** Work that must happen later: tries and their delays (JOB_*), and how often an idle worker looks. */
  jobs: { retryLimit: number; retryDelaySeconds: number; pollSeconds: number };
  /**
   * Webhook deliveries: deliveries in a row that fail for good before an
   * endpoint is disabled (WEBHOOK_DISABLE_AFTER, 10), and how long one attempt
   * may take (WEBHOOK_TIMEOUT_SECONDS, 10). Their tries and delays are the
   * queue's (JOB_*).
   */
  webhooks: { disableAfter: number; timeoutSeconds: number };
}

export class ConfigError extends Error {}

/** A sixteenth of the heap limit, in whole MB (see `Config.pageCacheBytes`). */
export function defaultPageCacheBytes(): number {
  const mb = 1024 * 1024;
  return Math.floor(getHeapStatistics().heap_size_limit / 16 / mb) * mb;
}

type Env = Record<string, string | undefined>;

/** Empty values count as unset (as compose files and shells often leave them). */
function present(env: Env): Record<string, string> {
  const names = Object.keys(envSchema.properties);
  return Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}

function refuse(name: string, value: string | undefined): never {
  const got = value === undefined ? 'unset' : `got "${value}"`;
  throw new ConfigError(`${name} must be ${allowedValues(name) ?? 'valid'} (${got})`);
}

/** `1/0/true/false/yes/no`: anything else was refused by the schema. */
function flag(value: string | undefined): boolean {
  return value === '1' || value === 'true' || value === 'yes';
}

function required(env: Record<string, string>, name: string, when: string): string {
  const value = env[name];
  if (!value) throw new ConfigError(`${name} is required when ${when}`);
  return value;
}

const TRUST_ANY =
  'TRUST_PROXY=true would believe the X-Forwarded-For of any client, who could then choose its own address ' +
  '(escaping the login and registration throttles, or reading /metrics as if local): name the proxies instead, ' +
  'by address or CIDR range (127.0.0.1, 10.0.0.0/8) or by number (1 for one nginx in front)';

function trustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') throw new ConfigError(TRUST_ANY);
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10) refuse('TRUST_PROXY', value);
    return hops;
  }
  const list = value.split(',').map((entry) => entry.trim());
  try {
    compileTrust(list);
  } catch (error) {
    throw new ConfigError(`TRUST_PROXY: ${(error as Error).message} (${allowedValues('TRUST_PROXY')})`);
  }
  return list;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function loadConfig(raw: Env = process.env): Config {
  const env = present(raw);
  const [first] = Value.Errors(envSchema, env);
  if (first) {
    const name = first.instancePath.split('/')[1] ?? '';
    refuse(name, env[name]);
  }
  const host = env.HOST ?? '127.0.0.1';
  const port = Number(env.PORT ?? '3000');
  if (port > 65535) refuse('PORT', env.PORT);
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD are set together or not at all');
  }
  const driver = (env.STORAGE ?? 'local') as StorageConfig['driver'];
  const storage: StorageConfig = { driver };
  if (driver === 's3') {
    storage.s3 = {
      endpoint: env.S3_ENDPOINT,
      bucket: required(env, 'S3_BUCKET', 'STORAGE=s3'),
      region: env.S3_REGION ?? 'us-east-1',
      accessKeyId: required(env, 'S3_ACCESS_KEY_ID', 'STORAGE=s3'),
      secretAccessKey: required(env, 'S3_SECRET_ACCESS_KEY', 'STORAGE=s3'),
      publicUrl: env.S3_PUBLIC_URL ? trimSlash(env.S3_PUBLIC_URL) : undefined,
    };
  }
  const publicUrl = env.PUBLIC_URL ?? `http://${host}:${port}`;
  try {
    new URL(publicUrl);
  } catch {
    refuse('PUBLIC_URL', publicUrl);
  }
  return {
    host,
    port,
    publicUrl: trimSlash(publicUrl),
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.DATABASE_SCHEMA,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    registration: (env.REGISTRATION ?? 'open') as Config['registration'],
    storage,
    uploads: {
      quotaBytes: Number(env.UPLOAD_QUOTA_MB ?? '512') * 1024 * 1024,
      inFlight: Number(env.UPLOADS_IN_FLIGHT ?? '4'),
    },
    pageJsonLimit: Number(env.PAGE_JSON_LIMIT_KB ?? '1024') * 1024,
    pageCacheBytes: env.PAGE_CACHE_MB === undefined ? defaultPageCacheBytes() : Number(env.PAGE_CACHE_MB) * 1024 * 1024,
    providerAllowPrivate: flag(env.PROVIDER_ALLOW_PRIVATE),
    logLevel: (env.LOG_LEVEL ?? 'info') as Config['logLevel'],
    corsOrigins: env.CORS_ORIGINS ? env.CORS_ORIGINS.split(',').map((origin) => trimSlash(origin.trim())) : [],
    metrics: { enabled: flag(env.METRICS), token: env.METRICS_TOKEN },
    webDir: env.WEB_DIR || 'web/dist',
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: trustProxy(env.TRUST_PROXY),
    pageHistoryLimit: Number(env.PAGE_HISTORY_LIMIT ?? '100'),
    jobs: {
      // About eight tries over a day: 5 min, then doubling (5, 10, 20 … 640 minutes: 21 hours in all).
      retryLimit: Number(env.JOB_RETRY_LIMIT ?? '8'),
      retryDelaySeconds: Number(env.JOB_RETRY_DELAY_SECONDS ?? '300'),
      pollSeconds: Number(env.JOB_POLL_SECONDS ?? '2'),
    },
    webhooks: {
      disableAfter: Number(env.WEBHOOK_DISABLE_AFTER ?? '10'),
      timeoutSeconds: Number(env.WEBHOOK_TIMEOUT_SECONDS ?? '10'),
    },
  };
}
