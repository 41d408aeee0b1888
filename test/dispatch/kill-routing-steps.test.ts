/** Killed at routing's steps (see test/dispatch/kill-standard-steps.test.ts for the whole drill). */
import { killedAtRoutingStep, killSetup, ROUTING_POINTS } from '../support/kill-steps';

killSetup();

test.each(ROUTING_POINTS)(
  'killed at %s, again and again: every part ends at the chosen supplier, one live order across both suppliers',
  (point) => killedAtRoutingStep(point)(),
  300000,
);
