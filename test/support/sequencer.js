/**
 * Jest orders test files by their last run's durations, or by file size when it has none, as on a fresh clone in
 * CI. There, a drill of several minutes could start last and stretch the run by its whole length: the slowest files
 * named here start first, the rest follow in jest's own order.
 */
const Sequencer = require('@jest/test-sequencer').default;

const SLOWEST_FIRST = [
  'test/dispatch/kill-printful-steps.test.ts',
  'test/dispatch/kill-standard-steps.test.ts',
  'test/dispatch/kill-reroute-steps.test.ts',
  'test/dispatch/kill-capture-steps.test.ts',
  'test/platform/readme-walk.test.ts',
  'test/dispatch/faults.test.ts',
  'test/identity/app-secret-rotation.test.ts',
  'test/platform/embedded-orphan.test.ts',
  'test/platform/lifecycle.test.ts',
  'test/suppliers/cj-service.test.ts',
  'test/fuzz/api.fuzz.test.ts',
  'test/platform/embedded-demo.test.ts',
  'test/catalogue/links.test.ts',
  'test/dispatch/engine.test.ts',
];

class SlowestFirst extends Sequencer {
  sort(tests) {
    const rank = (t) => {
      const i = SLOWEST_FIRST.findIndex((name) => t.path.endsWith(name));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    const ordered = super.sort(tests);
    const position = new Map(ordered.map((t, i) => [t, i]));
    return [...ordered].sort((a, b) => rank(a) - rank(b) || position.get(a) - position.get(b));
  }
}

module.exports = SlowestFirst;
