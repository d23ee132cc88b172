import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev`: the app with hot reload; /api and /uploads go to the service
// (PAGEBLOCKS_URL, default the `npm start` address).
const service = process.env.PAGEBLOCKS_URL ?? 'http://127.0.0.1:3000';
const proxy = {
  target: service,
  changeOrigin: true,
  // The session contour refuses writes whose Origin is not the service's own
  // (CSRF): through the proxy the browser's Origin is the dev server's.
  headers: { origin: new URL(service).origin },
};

export default defineConfig(({ command }) => {
  // A build is the production app whatever NODE_ENV the shell has: under NODE_ENV=test or
  // development Vite builds React's development runtime (874 KB of script on the first screen
  // instead of 640 KB), as a build started from a test runner's environment did.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: import.meta.dirname,
    plugins: [react()],
    build: { outDir: 'dist', emptyOutDir: true },
    server: { host: '127.0.0.1', proxy: { '/api': proxy, '/uploads': proxy } },
  };
});
