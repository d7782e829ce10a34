import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/cleanup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser tests share one Chromium; keep files in parallel but not overwhelming two cores.
    maxWorkers: 2,
  },
});
