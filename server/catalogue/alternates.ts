import type { Queryable } from '../platform/db';
import { ApiError, type ErrorDetail } from '../platform/errors';
import type { SupplierConnection } from '../connections';
import type { SupplierProduct } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import * as sql from './sql/alternates';
import type { AlternateInput, LinkAlternate } from './types';

/** At most this many alternates per store variant. */
export const MAX_ALTERNATES = 5;

interface AlternateSources {
  /** The store's connection, whatever its state (null: not one of the store's). */
  connection(storeId: string, connectionId: string): Promise<SupplierConnection | null>;
  /** The supplier product, read through the connection's gateway (as a link's primary is). */
  product(conn: SupplierConnection, supplierProductId: string): Promise<SupplierProduct>;
}

const invalid = (details: ErrorDetail[]) =>
  new ApiError(
    422,
    'alternateInvalid',
    "An alternate cannot be used: each must be a live connection of this store other than the link's, and a variant its supplier has; details names each.",
    details,
  );

/**
 * A link's alternates, checked before anything is written: each on a connection of the store that is live (on, not
 * removed, with credentials) and not the link's own, for a store variant of the linked product, naming a variant
 * the supplier really has (read through the gateway). Answers them with what the supplier says of each now.
 */
export async function checkAlternates(
  src: AlternateSources,
  link: { storeId: string; connectionId: string; storeVariantIds: string[] },
  input: AlternateInput[],
): Promise<LinkAlternate[]> {
  const problems: ErrorDetail[] = [];
  const conns = new Map<string, SupplierConnection | null>();
  const products = new Map<string, SupplierProduct | null>();
  const seen = new Set<string>();
  const positions = new Map<string, number>();
  const out: LinkAlternate[] = [];
  for (const [i, a] of input.entries()) {
    const at = (f: keyof AlternateInput) => `body/alternates/${i}/${f}`;
    if (!link.storeVariantIds.includes(a.storeVariantId))
      problems.push({ field: at('storeVariantId'), message: `store variant ${a.storeVariantId} is not a variant of the linked product` });
    const key = `${a.storeVariantId}:${a.connectionId}:${a.supplierVariantId}`;
    if (seen.has(key)) problems.push({ field: at('supplierVariantId'), message: 'this alternate is named twice for the store variant' });
    seen.add(key);
    const position = positions.get(a.storeVariantId) ?? 0;
    positions.set(a.storeVariantId, position + 1);
    if (position >= MAX_ALTERNATES) problems.push({ field: at('storeVariantId'), message: `at most ${MAX_ALTERNATES} alternates per store variant` });
    if (!conns.has(a.connectionId)) conns.set(a.connectionId, await src.connection(link.storeId, a.connectionId));
    const conn = conns.get(a.connectionId)!;
    if (!conn) {
      problems.push({ field: at('connectionId'), message: `connection ${a.connectionId} is not one of this store's` });
      continue;
    }
    if (conn.id === link.connectionId) {
      problems.push({ field: at('connectionId'), message: "an alternate must be on another connection than the link's own" });
      continue;
    }
    if (conn.disconnectedAt || !conn.enabled || !conn.credentialsSealed) {
      problems.push({ field: at('connectionId'), message: `connection ${a.connectionId} is switched off or removed` });
      continue;
    }
    const pkey = `${conn.id}:${a.supplierProductId}`;
    if (!products.has(pkey)) products.set(pkey, await readProduct(src, conn, a.supplierProductId));
    const product = products.get(pkey);
    if (!product) {
      problems.push({ field: at('supplierProductId'), message: `the supplier has no product ${a.supplierProductId}` });
      continue;
    }
    const v = product.variants.find((x) => x.id === a.supplierVariantId);
    if (!v) {
      problems.push({
        field: at('supplierVariantId'),
        message: `supplier variant ${a.supplierVariantId} does not exist on supplier product ${a.supplierProductId}`,
      });
      continue;
    }
    out.push({ ...a, position, costMinor: v.cost.amountMinor, currency: v.cost.currency, stock: v.stock, available: v.available });
  }
  if (problems.length) throw invalid(problems);
  return out;
}

async function readProduct(src: AlternateSources, conn: SupplierConnection, id: string): Promise<SupplierProduct | null> {
  try {
    return await src.product(conn, id);
  } catch (err) {
    if (err instanceof SupplierError && err.kind === 'notFound') return null;
    throw err;
  }
}

export const replaceAlternates = (tx: Queryable, storeId: string, linkId: string, alternates: LinkAlternate[]) =>
  sql.replaceAlternates(tx, storeId, linkId, alternates);
