import type { Work } from '../work';
import { type Candidate, type CandidateItem, Refusal } from './types';

// Which connections may take a part, with each item mapped to a variant there: the work's one read gives them all.

/** Where the part is now, its items as recorded; an item no longer linked to a supplier variant refuses. */
export function here(w: Work): Candidate | Refusal {
  const items: CandidateItem[] = [];
  for (const i of w.items) {
    if (!i.supplierProductId || !i.supplierVariantId) return new Refusal('variantUnavailable', `The item ${i.sku} is no longer linked to a supplier variant.`);
    items.push({
      id: i.id,
      sku: i.sku,
      quantity: i.quantity,
      supplierProductId: i.supplierProductId,
      supplierVariantId: i.supplierVariantId,
      maxBuyPrice: i.maxBuyPrice,
    });
  }
  return { connectionId: w.so.connectionId, conn: w.conn, items, position: null };
}

/**
 * The other connections that can take the whole part, each at each place its items' alternates name it (an item with
 * no alternate at that place takes its first on that connection), in the order listed; then the items' link's own
 * connection (place -1) when the part is no longer there.
 */
export function elsewhere(w: Work): Candidate[] {
  const { so } = w;
  const out: Candidate[] = [];
  const places = [...new Map(w.alternates.filter((a) => a.connectionId !== so.connectionId).map((a) => [`${a.connectionId}#${a.position}`, a])).values()];
  places.sort((a, b) => a.position - b.position);
  for (const { connectionId, position } of places) {
    const onConn = w.alternates
      .filter((a) => a.connectionId === connectionId)
      .sort((a, b) => Number(b.position === position) - Number(a.position === position) || a.position - b.position);
    const items = w.items.map((i): CandidateItem | null => {
      const a = onConn.find((x) => x.itemId === i.id);
      return a
        ? {
            id: i.id,
            sku: i.sku,
            quantity: i.quantity,
            supplierProductId: a.supplierProductId,
            supplierVariantId: a.supplierVariantId,
            maxBuyPrice: i.maxBuyPrice,
          }
        : null;
    });
    if (items.some((i) => !i)) continue;
    out.push({ connectionId, conn: connectionOf(w, connectionId), items: items as CandidateItem[], position });
  }
  const link = linkOwn(w);
  if (link) out.push(link);
  return out;
}

/** The items' link's own connection as a candidate (each item its linked variant), when the part is elsewhere now. */
function linkOwn(w: Work): Candidate | null {
  const first = w.items[0]?.linkConnectionId;
  if (!first || first === w.so.connectionId || w.items.some((i) => i.linkConnectionId !== first || !i.linkProductId || !i.linkVariantId)) return null;
  const items = w.items.map((i) => ({
    id: i.id,
    sku: i.sku,
    quantity: i.quantity,
    supplierProductId: i.linkProductId!,
    supplierVariantId: i.linkVariantId!,
    maxBuyPrice: i.maxBuyPrice,
  }));
  return { connectionId: first, conn: connectionOf(w, first), items, position: -1 };
}

/** One candidate per connection: its first place (what routing compares). */
export function firstPerConnection(cs: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return cs.filter((c) => !seen.has(c.connectionId) && !!seen.add(c.connectionId));
}

function connectionOf(w: Work, id: string) {
  return id === w.so.connectionId ? w.conn : (w.connections.find((c) => c.id === id) ?? null);
}
