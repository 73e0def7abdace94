import { defineConfig } from 'vitest/config'

// Three projects, one `vitest run`: pure units, the server in process, and real Chromium end to end.
export default defineConfig({
  test: {
    projects: [
      // unit, integration and integration-pg two files at a time (vitest's default on two cores is
      // one, and a test on PostgreSQL spends much of its time waiting for the database); the browser
      // alone, after them in a plain `vitest run`, beside them in `npm test` (scripts/run-tests.mjs).
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', maxWorkers: 2 } },
      // Both integration projects start servers and CLIs as children from one bundle (tests/support/serverBundle.ts).
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          maxWorkers: 2,
          // A worker keeps its modules from file to file: importing the server afresh for each file was
          // ~1.8 s of every file (a third of the suite's time). No integration file mocks a module or
          // stubs a global, and each starts its own servers on its own data.
          isolate: false,
          globalSetup: ['tests/support/serverBundle.ts'],
        },
      },
      // The same integration suite on PostgreSQL (issue 18): a throwaway cluster for the run, a database per server.
      {
        test: {
          name: 'integration-pg',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          env: { NADI_TEST_BACKEND: 'postgres' },
          maxWorkers: 2,
          isolate: false,
          globalSetup: ['tests/support/pgGlobalSetup.ts', 'tests/support/serverBundle.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          setupFiles: ['tests/e2e/support/setup.ts'],
          // One journey runs on PostgreSQL (tests/e2e/postgres.test.ts).
          globalSetup: ['tests/support/pgGlobalSetup.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // A screen drawn beside the server suites can take seconds; vitest's one-second default for
          // expect.poll failed a label that was there (CI, newcomer.labels) while its own timeout-less
          // polls stay the norm in these files.
          expect: { poll: { timeout: 10_000, interval: 100 } },
          // One browser at a time on a 2-core machine: parallel Chromiums only make each other flaky.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
