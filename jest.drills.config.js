/**
 * The crash drills (test/dispatch/kill-*-steps.test.ts, kill-routing-absent): a worker killed with SIGKILL at every
 * step of dispatch, again and again, each waiting out a dead worker's heartbeat; minutes each, mostly waiting. Their
 * own set (`npm run test:drills`), so `npm test` stays within ten minutes on two cores; .ci/run runs it in the
 * background beside the n8n runs, into dist/jest-results-drills.json.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/dispatch'],
  testMatch: ['**/kill-*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 3,
};
