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

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: { host: '127.0.0.1', proxy: { '/api': proxy, '/uploads': proxy } },
});
