/**
 * The request pipeline and dispatch's engine through PgBouncer in transaction mode, in front of a Patroni cluster
 * (issue 56, item 3): the same test files as `npm test` runs, each service on PgBouncer (DATABASE_URL) with a direct
 * session for LISTEN and the migrations' lock (DATABASE_SESSION_URL). .ci/run runs it after the cluster drills.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  globalSetup: '<rootDir>/test/support/pooled-setup.mjs',
  globalTeardown: '<rootDir>/test/support/pooled-teardown.mjs',
  testSequencer: undefined,
  maxWorkers: 2,
};
