/** The single-shard check (test/statements): after the suite, over what it sent to Postgres; needs no database. */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/statements'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: undefined,
  globalTeardown: undefined,
  testSequencer: undefined,
};
