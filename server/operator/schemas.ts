import { PLANS } from '../identity/types';
import { object, params } from '../platform/http/schemas';

// The operator's schemas: what its routes take (they answer accounts, identity's accountSchema).

export const GRANT_LIMIT = 10_000_000;
export const accountParams = params(['accountId']);
export const accountByEmail = object({ email: { type: 'string', minLength: 1, maxLength: 254 } }, ['email']);
export const planChange = object({ plan: { enum: [...PLANS] } }, ['plan']);
export const creditGrant = object({ amount: { type: 'integer', minimum: 1, maximum: GRANT_LIMIT }, reason: { type: 'string', minLength: 1, maxLength: 500 } }, [
  'amount',
  'reason',
]);
