import { ownRecordsKeyId } from '../identity/permissions';
import { ApiError, errors } from '../platform/errors';
import type { RequestContext } from '../platform/http/route';
import type { ConnectionService, SupplierConnection } from '../connections';
import type { ImportFailure } from './import-failures';
import { DEFAULT_IMPORT_PRICE_RULE, normalisePriceRule, PriceRule, PriceRuleError } from './price-rule';

// What the catalogue's two route files (./routes.ts, ./link-routes.ts) share.

export const BASE = '/api/store-suppliers';

/** The caller's connection, switched on: what browsing, importing and linking go through. */
export const usableConnection =
  (connections: ConnectionService) =>
  async (ctx: RequestContext<{ storeId: string }, unknown, unknown>, connectionId: string): Promise<SupplierConnection> => {
    const conn = await connections.get(ctx.params.storeId, connectionId, ownRecordsKeyId(ctx.caller));
    if (!conn.enabled) throw errors.invalidState('The connection is switched off.');
    return conn;
  };
export type UsableConnection = ReturnType<typeof usableConnection>;

export function nothingImported(failures: ImportFailure[]): ApiError {
  const [first] = failures;
  const message =
    failures.length === 1 ? `Nothing was imported: ${first.message}` : `None of the ${failures.length} products was imported; details gives each one's reason.`;
  return new ApiError(
    422,
    'nothingImported',
    message,
    failures.map((f) => ({ ...f })),
  );
}

/** The price rule asked for (the import default when none), or 400 with the rule's own error. */
export function rule(input: Partial<PriceRule> | undefined) {
  if (input === undefined) return DEFAULT_IMPORT_PRICE_RULE;
  try {
    return normalisePriceRule(input);
  } catch (e) {
    if (e instanceof PriceRuleError) throw errors.validationFailed([{ field: `body/priceRule/${e.field}`, message: e.message }]);
    throw e;
  }
}
