import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pagePaths } from './src/shared/paths.ts';

// The operators' console is a build of its own (docs/decisions/0013-operators-and-sign-in.md):
// the public page's build merges every stylesheet into the one it inlines (cssCodeSplit off), so a
// console entry there would put the console's styles into every visitor's page. Here it has its
// own module graph, output folder and manifest; the public bundle cannot contain any of it.
export default defineConfig({
  plugins: [react()],
  base: `${pagePaths.admin}/`,
  build: {
    outDir: 'dist/admin',
    emptyOutDir: true,
    manifest: true,
    assetsInlineLimit: 0,
    rollupOptions: { input: ['src/client/admin/entry.tsx'] },
  },
});
