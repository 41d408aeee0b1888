/**
 * Jest orders test files by their last run's durations, or by file size when it has none, as on a fresh clone in
 * CI. There, a drill of several minutes could start last and stretch the run by its whole length (a four-line crash
 * drill is among the smallest files): the files start longest first by the durations recorded in
 * test/support/durations.json (test/support/record-durations.cjs writes it); a file not recorded yet counts as a
 * minute, so a new drill is not left to the end either.
 */
const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');
const durations = require('./durations.json');

const root = path.resolve(__dirname, '../..');
const UNRECORDED_SECONDS = 60;

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = (t) => durations[path.relative(root, t.path).split(path.sep).join('/')] ?? UNRECORDED_SECONDS;
    const ordered = super.sort(tests);
    const position = new Map(ordered.map((t, i) => [t, i]));
    return [...ordered].sort((a, b) => seconds(b) - seconds(a) || position.get(a) - position.get(b));
  }
}

module.exports = LongestFirst;
