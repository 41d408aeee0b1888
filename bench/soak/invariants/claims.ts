/**
 * No claim sent twice, no reship created twice (issue 54), against the sandbox's own records: every claim the soak
 * opened is created at the sandbox at most once under its key (once, if it got there), every claim the service closed
 * as reshipped has exactly one reship supplier order in the service and, once it was sent, exactly one order at the
 * sandbox for it; and the sandbox holds no claim key created twice and no claim reshipped twice, whoever opened it.
 */
import { control } from '../api';
import type { Opened } from '../claims';
import type { Suppliers } from '../programs';
import { type Verdict, verdict } from './verdict';

interface Received {
  claims: Array<{ id: string; claimKey: string; status: string; opens: number }>;
  claimOpensByKey: Record<string, number>;
  reshipsByClaim: Record<string, number>;
  orders: Array<{ orderNumber: string }>;
}
interface ServiceClaim {
  status: string;
  supplierClaimId: string | null;
  outcome: { kind: string; supplierOrderId: string | null } | null;
}
interface ServiceSo {
  _id: string;
  status: string;
  supplierOrderNumber: string;
  reshipOf: { claimId: string } | null;
}

type Store = Opened['store'];

/** Every page of a store's supplier orders at the sandbox (a store holds hundreds: one page of 100 missed reships). */
function sandboxOrdersOf(store: Store, listed: Map<string, Promise<ServiceSo[]>>): Promise<ServiceSo[]> {
  const once =
    listed.get(store.storeId) ??
    (async () => {
      const out: ServiceSo[] = [];
      for (let cursor = ''; ;) {
        const q = `integrationId=${store.conns.sandbox}&pageSize=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = await store.api.patiently<{ result: { items: ServiceSo[]; pagination: { nextCursor: string | null } } }>(
          'GET',
          `/api/store-suppliers/${store.storeId}/orders?${q}`,
          { key: store.owner.key },
        );
        if (page.status !== 200) throw new Error(`listing the supplier orders of store ${store.index}: ${page.status}`);
        out.push(...page.body.result.items);
        if (!page.body.result.pagination.nextCursor) return out;
        cursor = page.body.result.pagination.nextCursor;
      }
    })();
  listed.set(store.storeId, once);
  return once;
}

export async function noClaimOrReshipTwice(opened: Opened[], s: Suppliers): Promise<Verdict> {
  const r = await control<Received>(s.sandbox.control, 'GET', '/received');
  const failures: string[] = [];
  for (const [key, n] of Object.entries(r.claimOpensByKey)) if (n > 1) failures.push(`claim key ${key} was created at the sandbox ${n} times`);
  for (const [id, n] of Object.entries(r.reshipsByClaim)) if (n > 1) failures.push(`the sandbox's claim ${id} has ${n} reship orders`);
  let reshipped = 0;
  const listed = new Map<string, Promise<ServiceSo[]>>();
  for (const o of opened) {
    const { api, owner, storeId } = o.store;
    const c = await api.patiently<{ result: ServiceClaim }>('GET', `/api/store-suppliers/${storeId}/orders/${o.supplierOrderId}/claims/${o.claimId}`, {
      key: owner.key,
    });
    if (c.status !== 200) {
      failures.push(`claim ${o.claimId} (store ${o.store.index}) could not be read: ${c.status}`);
      continue;
    }
    const claim = c.body.result;
    const opens = r.claimOpensByKey[o.claimId] ?? 0;
    if (claim.supplierClaimId && opens !== 1)
      failures.push(`claim ${o.claimId} is ${claim.status} at the service as ${claim.supplierClaimId}, created at the sandbox ${opens} times`);
    if (claim.outcome?.kind !== 'reshipped') continue;
    reshipped++;
    const reships = (await sandboxOrdersOf(o.store, listed)).filter((so) => so.reshipOf?.claimId === o.claimId);
    if (reships.length !== 1) failures.push(`claim ${o.claimId} won a reship; the service holds ${reships.length} reship orders for it`);
    for (const so of reships.filter((x) => x.status !== 'queued')) {
      const there = r.orders.filter((x) => x.orderNumber === so.supplierOrderNumber).length;
      if (there !== 1) failures.push(`reship ${so._id} of claim ${o.claimId} (${so.status}) is ${there} orders at the sandbox under its number`);
    }
    if (claim.supplierClaimId && (r.reshipsByClaim[claim.supplierClaimId] ?? 0) > 1)
      failures.push(`claim ${o.claimId}: ${r.reshipsByClaim[claim.supplierClaimId]} reship orders at the sandbox`);
  }
  return verdict(
    'no claim sent twice, no reship created twice',
    `${opened.length} claims opened (${reshipped} reshipped), ${r.claims.length} claims at the sandbox`,
    failures,
  );
}
