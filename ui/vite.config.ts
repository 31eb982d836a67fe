import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';

// Resolve from this file rather than process.cwd(), so `vite build --config ui/vite.config.ts`
// behaves the same whether it is run from the repo root or from ui/.
const uiDir = decodeURIComponent(new URL('.', import.meta.url).pathname);
const adminOrigin = 'http://127.0.0.1:8080';

export default defineConfig({
  root: uiDir,
  base: '/',
  plugins: [solid()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: adminOrigin, changeOrigin: false },
      '/healthz': { target: adminOrigin, changeOrigin: false },
    },
  },
  preview: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: adminOrigin, changeOrigin: false },
      '/healthz': { target: adminOrigin, changeOrigin: false },
    },
  },
});
