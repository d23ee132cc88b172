import type { KyselyConfig, LogEvent } from 'kysely';

/** Told each query's duration in seconds, and whether it failed. */
export type QueryObserver = (seconds: number, failed: boolean) => void;

/** Kysely's `log` option, timing every query (prepared ones too) for an observer; nothing without one. */
export function queryLog(observer: QueryObserver | undefined): Pick<KyselyConfig, 'log'> {
  if (!observer) return {};
  return { log: (event: LogEvent) => observer(event.queryDurationMillis / 1000, event.level === 'error') };
}
