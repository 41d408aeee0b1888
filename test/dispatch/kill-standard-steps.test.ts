/**
 * Resumable steps: a worker is killed with SIGKILL at each step boundary of dispatch (before create, after the
 * supplier created it but before we recorded it, after that record before pay, after the supplier took the payment
 * but before we recorded it; under promise to sell, before asking the payment provider to capture the shopper's
 * payment, and after the provider captured it but before we recorded the request), several times over, each time
 * restarted with the same crash point armed. Then a worker without it finishes. Counted at the sandbox supplier and
 * at the payment provider: every part has exactly one supplier order, paid exactly once; every shopper is captured
 * exactly once (the provider's own records); and none is left with a step due. Then the reroute's steps: killed
 * before the cancel at the first supplier, between that cancel and anything at the alternate, and after the reroute
 * is written but before the alternate's job is sent: each part ends rerouted, with one live order across both
 * suppliers (their own records).
 */
import { killedAtStep, killSetup } from '../support/kill-steps';

killSetup();

test.each(['dispatch.beforeCreate', 'dispatch.afterCreate', 'dispatch.beforePay', 'dispatch.afterPay'])(
  'killed at %s (standard), again and again: every part ordered once, paid once, none stuck',
  (point) => killedAtStep(point, 'standard')(),
  300000,
);
