/**
 * `npm run fake-provider`: a fake fourcms on 127.0.0.1:PORT (default 4010)
 * for local trials. Set a site's provider to the printed URL and token (with
 * PROVIDER_ALLOW_PRIVATE=1 on the service, since it is a loopback address).
 */
import { startFakeFourcms } from './fake-server.js';

const rawPort = process.env.PORT ?? '4010';
const port = Number(rawPort);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`PORT must be an integer 0..65535 (got "${rawPort}")\n`);
  process.exit(1);
}

try {
  const fake = await startFakeFourcms({
    port,
    host: '127.0.0.1',
    token: process.env.FAKE_FOURCMS_TOKEN || undefined,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`fake fourcms url:   ${fake.url}\nfake fourcms token: ${fake.token}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await fake.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
} catch (error) {
  const code = (error as { code?: unknown }).code;
  process.stderr.write(
    code === 'EADDRINUSE'
      ? `port ${port} is already in use; set PORT to another one\n`
      : `${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
