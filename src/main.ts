import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { startupSummary } from './config/summary.js';
import { packageVersion } from './shared/package-file.js';

async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
  const url = await app.http.listen({ host: config.host, port: config.port });
  const summary = startupSummary(config, url, packageVersion());
  app.http.log.info(
    summary,
    `pageblocks ${summary.version} started at ${url} (${summary.database.dialect}, node ${summary.node})`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.http.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.http.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError
      ? `configuration error: ${error.message}`
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
