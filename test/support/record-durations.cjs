/**
 * Writes test/support/durations.json from a whole run's results (default dist/jest-results.json): each test file's
 * seconds, which test/support/sequencer.js starts longest first. Rerun after adding a file of more than a minute.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const results = JSON.parse(fs.readFileSync(path.resolve(process.argv[2] ?? path.join(root, 'dist/jest-results.json')), 'utf8'));
const seconds = {};
for (const r of results.testResults) {
  const file = path
    .relative(root, r.name)
    .split(path.sep)
    .join('/')
    .replace(/^.*?(test\/)/, '$1');
  seconds[file] = Math.round((r.endTime - r.startTime) / 1000);
}
const sorted = Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
fs.writeFileSync(path.join(__dirname, 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files recorded`);
