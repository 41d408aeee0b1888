/** Killed between a routed part's create at its primary and its record, then the primary switched off (issue 51, item 2). */
import { killedBetweenCreateAndRecordThenSwitchedOff, killSetup } from '../support/kill-steps';

killSetup();

test("killed after the primary's create, the primary then switched off: no alternate is asked to create, one live order across both suppliers", killedBetweenCreateAndRecordThenSwitchedOff, 300000);
