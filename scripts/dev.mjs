/**
 * `npm run dev`: the service from sources, restarted on change (`tsx watch`),
 * and the web app from Vite with hot reload on http://127.0.0.1:5173, which
 * proxies /api and /uploads to the service. Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'vite';

const service = spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/main.ts'], { stdio: 'inherit' });
const vite = await createServer({ configFile: 'web/vite.config.ts' });
await vite.listen();
vite.printUrls();

const stop = async () => {
  service.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
service.on('exit', (code) => {
  if (code !== null && code !== 0) process.stderr.write(`service exited with ${code}\n`);
});
