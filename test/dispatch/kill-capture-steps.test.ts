/** Killed at the capture steps of promise to sell (see test/dispatch/kill-standard-steps.test.ts for the whole drill). */
import { killedAtStep, killSetup } from '../support/kill-steps';

killSetup();

test.each(['dispatch.beforeCapture', 'dispatch.afterCapture'])(
  'killed at %s (promiseToSell), again and again: every part ordered once, paid once, every shopper captured once',
  (point) => killedAtStep(point, 'promiseToSell')(),
  300000,
);
