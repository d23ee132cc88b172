import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { envSchema } from '../../../src/config/env.schema.js';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

const S3 = { STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };

// One refused value per variable, with what the message must name.
const REFUSED: Record<string, { env: Record<string, string>; says: string }> = {
  HOST: { env: { HOST: 'two words' }, says: 'HOST must be a host name or address (got "two words")' },
  PORT: { env: { PORT: '70000' }, says: 'PORT must be an integer 0..65535 (got "70000")' },
  PUBLIC_URL: { env: { PUBLIC_URL: 'ftp://x' }, says: 'PUBLIC_URL must be an http(s) URL (got "ftp://x")' },
  DATA_DIR: { env: {}, says: '' },
  WEB_DIR: { env: {}, says: '' },
  TRUST_PROXY: {
    env: { TRUST_PROXY: 'yes please' },
    says: "TRUST_PROXY must be false, the number of proxies in front (1 for one nginx), or a comma-separated list of the proxies' addresses",
  },
  DATABASE_URL: { env: { DATABASE_URL: 'mysql://x' }, says: 'DATABASE_URL must be a postgres:// URL' },
  DATABASE_SCHEMA: { env: { DATABASE_SCHEMA: 'Bad-Name' }, says: 'DATABASE_SCHEMA must be a PostgreSQL schema name' },
  ADMIN_EMAIL: { env: { ADMIN_EMAIL: 'nobody', ADMIN_PASSWORD: 'long-enough' }, says: 'ADMIN_EMAIL must be an email' },
  ADMIN_PASSWORD: { env: { ADMIN_EMAIL: 'a@b.c', ADMIN_PASSWORD: 'short' }, says: 'ADMIN_PASSWORD must be at least 8' },
  REGISTRATION: { env: { REGISTRATION: 'invite' }, says: 'REGISTRATION must be one of open, closed (got "invite")' },
  STORAGE: { env: { STORAGE: 'gcs' }, says: 'STORAGE must be one of local, s3 (got "gcs")' },
  S3_ENDPOINT: { env: { ...S3, S3_ENDPOINT: 'minio:9000' }, says: 'S3_ENDPOINT must be an http(s) URL' },
  S3_BUCKET: { env: { ...S3, S3_BUCKET: '' }, says: 'S3_BUCKET is required when STORAGE=s3' },
  S3_REGION: { env: { ...S3, S3_REGION: 'EU West' }, says: 'S3_REGION must be a region name' },
  S3_ACCESS_KEY_ID: { env: { ...S3, S3_ACCESS_KEY_ID: '' }, says: 'S3_ACCESS_KEY_ID is required when STORAGE=s3' },
  S3_SECRET_ACCESS_KEY: { env: { ...S3, S3_SECRET_ACCESS_KEY: '' }, says: 'S3_SECRET_ACCESS_KEY is required when' },
  S3_PUBLIC_URL: { env: { ...S3, S3_PUBLIC_URL: 'cdn' }, says: 'S3_PUBLIC_URL must be an http(s) URL (got "cdn")' },
  UPLOAD_QUOTA_MB: { env: { UPLOAD_QUOTA_MB: '0.5' }, says: 'UPLOAD_QUOTA_MB must be a whole number of MB' },
  UPLOADS_IN_FLIGHT: { env: { UPLOADS_IN_FLIGHT: '0' }, says: 'UPLOADS_IN_FLIGHT must be a whole number, 1 to 999' },
  PAGE_JSON_LIMIT_KB: {
    env: { PAGE_JSON_LIMIT_KB: '0' },
    says: 'PAGE_JSON_LIMIT_KB must be a whole number of KiB, 1 to 9999999',
  },
  PAGE_CACHE_MB: { env: { PAGE_CACHE_MB: '8.5' }, says: 'PAGE_CACHE_MB must be a whole number of MB, 0 (keep' },
  PAGE_HISTORY_LIMIT: {
    env: { PAGE_HISTORY_LIMIT: '0' },
    says: 'PAGE_HISTORY_LIMIT must be a whole number of versions, 1 to 999999',
  },
  JOB_RETRY_LIMIT: { env: { JOB_RETRY_LIMIT: '-1' }, says: 'JOB_RETRY_LIMIT must be a whole number of tries' },
  JOB_RETRY_DELAY_SECONDS: {
    env: { JOB_RETRY_DELAY_SECONDS: '0' },
    says: 'JOB_RETRY_DELAY_SECONDS must be a whole number of seconds, 1 to 999999',
  },
  JOB_POLL_SECONDS: { env: { JOB_POLL_SECONDS: '0.1' }, says: 'JOB_POLL_SECONDS must be seconds, 0.5 to 9999' },
  WEBHOOK_DISABLE_AFTER: {
    env: { WEBHOOK_DISABLE_AFTER: '0' },
    says: 'WEBHOOK_DISABLE_AFTER must be a whole number of deliveries, 1 to 9999',
  },
  WEBHOOK_TIMEOUT_SECONDS: {
    env: { WEBHOOK_TIMEOUT_SECONDS: '1000' },
    says: 'WEBHOOK_TIMEOUT_SECONDS must be a whole number of seconds, 1 to 999',
  },
  PROVIDER_ALLOW_PRIVATE: {
    env: { PROVIDER_ALLOW_PRIVATE: 'on' },
    says: 'PROVIDER_ALLOW_PRIVATE must be one of 1, 0, true, false, yes, no (got "on")',
  },
  LOG_LEVEL: {
    env: { LOG_LEVEL: 'verbose' },
    says: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
  },
  CORS_ORIGINS: { env: { CORS_ORIGINS: 'example.com' }, says: 'CORS_ORIGINS must be * or a comma-separated list' },
  METRICS: { env: { METRICS: 'enabled' }, says: 'METRICS must be one of 1, 0, true, false, yes, no' },
  METRICS_TOKEN: { env: { METRICS_TOKEN: 'short' }, says: 'METRICS_TOKEN must be a token of at least 16 characters' },
};

describe('configuration from the environment', () => {
  it('has a refusal case for every variable of the schema', () => {
    expect(Object.keys(REFUSED).sort()).toEqual(Object.keys(envSchema.properties).sort());
  });

  for (const [name, { env, says }] of Object.entries(REFUSED)) {
    if (!says) continue; // any string is a directory name
    it(`refuses a wrong ${name} in one line that names it`, () => {
      const message = refusal(env);
      expect(message).toContain(says);
      expect(message).not.toContain('\n');
    });
  }

  it('reads TRUST_PROXY as a hop count or the proxies, and refuses "any" (true) saying why', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
    expect(refusal({ TRUST_PROXY: 'true' })).toMatch(
      /^TRUST_PROXY=true would believe the X-Forwarded-For of any client, who could then choose its own address .*name the proxies instead/,
    );
    for (const wrong of ['0', '11', '300.1.1.1', '10.0.0.0/33', '0.0.0.0/0', '::/0', 'proxy.example.com']) {
      expect(refusal({ TRUST_PROXY: wrong })).toMatch(/^TRUST_PROXY/);
    }
  });

  it('reads booleans as 1/0/true/false/yes/no', () => {
    for (const yes of ['1', 'true', 'yes'])
      expect(loadConfig({ PROVIDER_ALLOW_PRIVATE: yes }).providerAllowPrivate).toBe(true);
    for (const no of ['0', 'false', 'no', ''])
      expect(loadConfig({ PROVIDER_ALLOW_PRIVATE: no }).providerAllowPrivate).toBe(false);
    expect(loadConfig({ METRICS: 'yes', METRICS_TOKEN: 'a-token-of-16-chars' }).metrics).toEqual({
      enabled: true,
      token: 'a-token-of-16-chars',
    });
  });

  it('has defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      publicUrl: 'http://127.0.0.1:3000',
      dataDir: './data',
      registration: 'open',
      storage: { driver: 'local' },
      providerAllowPrivate: false,
      logLevel: 'info',
      corsOrigins: [],
      metrics: { enabled: false, token: undefined },
      webDir: 'web/dist',
      uploads: { quotaBytes: 512 * 1024 * 1024, inFlight: 4 },
    });
    expect(loadConfig({ UPLOAD_QUOTA_MB: '3', UPLOADS_IN_FLIGHT: '12' }).uploads).toEqual({
      quotaBytes: 3 * 1024 * 1024,
      inFlight: 12,
    });
    expect(loadConfig({}).pageJsonLimit).toBe(1024 * 1024);
    expect(loadConfig({ PAGE_JSON_LIMIT_KB: '64' }).pageJsonLimit).toBe(64 * 1024);
    // A sixteenth of the heap limit by default; 0 keeps nothing.
    const heap = getHeapStatistics().heap_size_limit;
    expect(loadConfig({}).pageCacheBytes).toBe(Math.floor(heap / 16 / 2 ** 20) * 2 ** 20);
    expect(loadConfig({ PAGE_CACHE_MB: '64' }).pageCacheBytes).toBe(64 * 2 ** 20);
    expect(loadConfig({ PAGE_CACHE_MB: '0' }).pageCacheBytes).toBe(0);
    for (const wrong of ['-1', '01', '1e3', '1000000', ' 8'])
      expect(refusal({ PAGE_CACHE_MB: wrong })).toMatch(/^PAGE_CACHE_MB/);
  });

  it('reads S3 settings and CORS origins', () => {
    const config = loadConfig({
      ...S3,
      S3_PUBLIC_URL: 'https://cdn.example/',
      CORS_ORIGINS: 'https://a.example, https://b.example/',
    });
    expect(config.storage.s3).toMatchObject({ bucket: 'b', region: 'us-east-1', publicUrl: 'https://cdn.example' });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
  });

  it('refuses an administrator half given', () => {
    expect(refusal({ ADMIN_EMAIL: 'a@b.c' })).toBe('ADMIN_EMAIL and ADMIN_PASSWORD are set together or not at all');
  });
});
