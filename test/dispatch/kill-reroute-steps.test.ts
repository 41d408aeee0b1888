/** Killed at the reroute's steps (see test/dispatch/kill-standard-steps.test.ts for the whole drill). */
import { killedAtRerouteStep, killSetup, REROUTE_POINTS } from '../support/kill-steps';

killSetup();

test.each(REROUTE_POINTS)(
  'killed at %s, again and again: every part ends rerouted, one live order across both suppliers',
  (point) => killedAtRerouteStep(point)(),
  300000,
);
