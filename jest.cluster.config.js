/**
 * The drills on a Patroni cluster (test/cluster): failovers Patroni decides, PgBouncer in transaction mode, what a
 * client sees mid-switch. Their own set (`npm run test:cluster`), so `npm test` needs no cluster; .ci/run runs it in
 * the background beside the n8n runs, into dist/jest-results-cluster.json.
 */
const base = require('./jest.config');

module.exports = { ...base, roots: ['<rootDir>/test/cluster'], testPathIgnorePatterns: ['/node_modules/'], testSequencer: undefined, maxWorkers: 2 };
