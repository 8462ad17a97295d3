import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src-main/index.ts'),
          // The venue runs in a worker thread so matching and SQLite writes never stall the windows.
          'venue-worker': resolve(import.meta.dirname, 'src-main/venue/worker.ts'),
          // The store's own threads: the journal file (store/journal-writer.ts) and the tables (store/store-writer.ts).
          'journal-writer': resolve(import.meta.dirname, 'src-main/venue/store/journal-thread.ts'),
          'store-writer': resolve(import.meta.dirname, 'src-main/venue/store/writer-thread.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src-preload/index.ts') },
        // A sandboxed preload cannot be an ES module.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    build: { rollupOptions: { input: resolve(import.meta.dirname, 'src-renderer/index.html') } },
    plugins: [react()],
  },
});
