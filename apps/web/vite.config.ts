import { defineConfig } from 'vite';

// In development the API and sign-in listeners run beside Vite (`coinop serve`); the app calls
// them through its own origin exactly as it does behind the web listener in production.
const apiTarget = process.env.COINOP_API_URL ?? 'http://127.0.0.1:8080';
const authTarget = process.env.COINOP_AUTH_URL ?? 'http://127.0.0.1:8081';

export default defineConfig({
  // esbuild's own JSX transform: no Babel plugin needed for React.
  esbuild: { jsx: 'automatic' },
  server: {
    // The arcade's web origin, as in production: games' SDKs (Origin.DEV) talk to this origin.
    host: '127.0.0.1',
    port: 8082,
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, rewrite: (path) => path.replace(/^\/api/, '') },
      '/auth': { target: authTarget, rewrite: (path) => path.replace(/^\/auth/, '') },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
