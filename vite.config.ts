import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { siteContent } from './content/site-content.ts';
import { parseSiteContent } from './src/shared/content-schema.ts';

// Fails `vite build` (and `vite` dev) with a message naming each bad field of the content file.
const validateContent = (): Plugin => ({
  name: 'dh-validate-content',
  buildStart() {
    parseSiteContent(siteContent);
  },
});

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), validateContent()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    // Keep SVG art as cacheable files instead of base64 in the HTML and JS.
    assetsInlineLimit: 0,
    // The stylesheet is inlined into the HTML by the server (one round trip fewer on a phone);
    // keeping it as a single file makes that simple.
    cssCodeSplit: false,
    rollupOptions: {
      // The beacon is its own tiny entry: it must never wait for, or fail with, the page's bundle.
      // (The SSR build names its own input in scripts/build.ts; Vite would merge the two lists.)
      ...(isSsrBuild ? {} : { input: ['src/client/site/entry-client.ts', 'src/client/analytics/beacon.ts'] }),
      // Our modules define no getters, so reading a property has no side effect: a top-level read
      // left unused (a message or a path looked up at module scope for another export) can go,
      // instead of riding in every island's script as a bare `a.consent;`.
      treeshake: { propertyReadSideEffects: false },
    },
  },
}));
