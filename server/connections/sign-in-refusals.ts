import { ApiError, errors } from '../platform/errors';

// The answers of a sign-in that cannot go on (./sign-in.ts), each with its stable code.

/** The one answer to a state that cannot complete a sign-in, whatever the reason. */
export const SIGN_IN_REFUSED = new ApiError(400, 'invalidSignInState', 'The sign-in state is unknown, expired, already used or not valid.');

/** The supplier's way back, in a browser that did not open the sign-in at this service (or lost its cookie). */
export const SIGN_IN_OTHER_BROWSER = new ApiError(
  400,
  'signInBrowserMismatch',
  "This sign-in can be completed only in the browser that opened it at this service; nothing was connected. Start the sign-in again from the store's console.",
);

export const SIGN_IN_SPENT = new ApiError(400, 'invalidSignInState', 'This sign-in has expired or was already used; start it again.');

export const SIGN_IN_OPENED_BY_ANOTHER = errors.conflict(
  'signInOpenedByAnother',
  'Another member of the store opened this sign-in; only their browser can complete it. Start a new sign-in.',
);

export const SIGN_IN_OPENER_LOST_ACCESS = new ApiError(
  400,
  'invalidSignInState',
  "The member who opened this sign-in no longer holds suppliers.manage on the store, or the store owner's plan no longer includes dropshipping; nothing was connected.",
);
