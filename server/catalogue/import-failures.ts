import { ApiError } from '../platform/errors';
import { CircuitOpenError, SignInLapsedError } from '../connections/gateway';
import { SupplierError } from '../suppliers/errors';
import { PriceRuleError } from './price-rule';
import type { ImportItem } from './types';

/** Why one product of an import or preview was not imported: a stable code and a sentence for the merchant. */
export interface ImportFailure {
  supplierProductId: string;
  code: string;
  message: string;
}

export class ItemError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Why one product could not be imported, in the merchant's words: never the supplier's request, path or raw answer. */
export function failureOf(item: ImportItem, err: unknown, supplier: string): ImportFailure {
  const id = item.supplierProductId;
  if (err instanceof ItemError) return { supplierProductId: id, code: err.code, message: err.message };
  if (err instanceof ApiError) return { supplierProductId: id, code: err.code, message: err.message };
  if (err instanceof SupplierError) return { supplierProductId: id, ...supplierWords(err, id, supplier) };
  if (err instanceof PriceRuleError) return { supplierProductId: id, code: 'priceRuleInvalid', message: err.message };
  throw err;
}

function supplierWords(err: SupplierError, id: string, supplier: string): { code: string; message: string } {
  if (err instanceof SignInLapsedError)
    return { code: 'signInExpired', message: `The sign-in at ${supplier} ended; sign in again in Connections, then import again.` };
  if (err instanceof CircuitOpenError)
    return { code: 'circuitOpen', message: `The ${supplier} connection is paused after repeated errors; import again later.` };
  if (err.kind === 'notFound')
    return { code: 'supplierProductNotFound', message: `${supplier} has no product ${id}. Check the id, or paste the product's link instead.` };
  if (err.isOutage) return { code: 'supplierUnavailable', message: `${supplier} did not answer in time; import again in a few minutes.` };
  if (err.kind === 'credentialsRejected')
    return { code: 'credentialsRejected', message: `${supplier} refused the connection's credentials; connect it again, then import again.` };
  return { code: 'supplierRefused', message: `${supplier} refused to show product ${id}.` };
}
