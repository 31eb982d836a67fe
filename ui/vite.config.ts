import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
import solid from 'vite-plugin-solid';

// Resolve from this file rather than process.cwd(), so `vite build --config ui/vite.config.ts`
// behaves the same whether it is run from the repo root or from ui/.
const uiDir = fileURLToPath(new URL('.', import.meta.url));
// The UI imports the pure modules of ../domain (state tables, error texts, view types), so the
// dev server must be allowed to serve files above ui/; the build bundles them like its own.
const repoDir = fileURLToPath(new URL('..', import.meta.url));

// Same variable the admin reads, so dev and preview follow an admin moved off 8080.
const adminOrigin = `http://127.0.0.1:${process.env.CMAUTOBUY_ADMIN_PORT ?? '8080'}`;
const proxy: Record<string, ProxyOptions> = {
  '/api': { target: adminOrigin },
  '/healthz': { target: adminOrigin },
};

export default defineConfig({
  root: uiDir,
  base: '/',
  // Keep the dep-optimizer cache in the root node_modules instead of growing a ui/node_modules.
  cacheDir: '../node_modules/.vite/ui',
  plugins: [solid()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: { host: '127.0.0.1', proxy, fs: { allow: [repoDir] } },
  preview: { host: '127.0.0.1', proxy },
});
