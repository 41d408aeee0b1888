/**
 * Killed between a routed part's create at its primary and its record, then the primary switched off (issue 51, item 2);
 * and killed at a claim's steps, up to its reship (issue 54).
 */
import { killedAtReshipStep, killedBetweenCreateAndRecordThenSwitchedOff, killSetup, RESHIP_POINTS } from '../support/kill-steps';

killSetup();

test(
  "killed after the primary's create, the primary then switched off: no alternate is asked to create, one live order across both suppliers",
  killedBetweenCreateAndRecordThenSwitchedOff,
  300000,
);

test.each(RESHIP_POINTS)(
  'killed at %s, again and again: every claim sent once, every reship made once at the sandbox',
  (point) => killedAtReshipStep(point)(),
  300000,
);
