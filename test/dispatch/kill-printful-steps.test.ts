/**
 * The kill-at-every-step drill (test/support/kill-steps.ts) with Printful's order model: a draft made (create), then
 * confirmed (pay, which charges the store's card at Printful). A worker is killed with SIGKILL before the draft, after
 * Printful made it but before we recorded it, between the recorded draft and the confirm, and after Printful confirmed
 * but before we recorded it, several times over; then a worker without the crash point finishes. Printful's own records
 * (the Printful-format server's) show for every part one draft, asked for once, and one confirm, asked for once.
 */
import { killedAtStep, killSetup } from '../support/kill-steps';

killSetup();

test.each(['dispatch.beforeCreate', 'dispatch.afterCreate', 'dispatch.beforePay', 'dispatch.afterPay'])(
  'Printful, killed at %s, again and again: every part drafted once, confirmed once, none stuck',
  (point) => killedAtStep(point, 'standard', 'printful')(),
  300000,
);
