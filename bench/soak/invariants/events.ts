/**
 * Every event delivered at least once, in order per resource: what each subscription should have had is the
 * outbox's events of its store written since it was made (read-only from the service's database); what it had is
 * what its receiver recorded (answered 2xx, signature good). In order: an attempt at an event arrives only after
 * every earlier event of the same resource was accepted.
 */
import type { Deployment } from '../deployments';
import type { Store } from '../world';
import { Verdict, verdict } from './verdict';

interface OutboxEvent {
  id: string;
  seq: string;
  type: string;
  resource_key: string;
  created_at: Date;
}

interface DeliveryRow {
  status: string;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
}

/**
 * The types a `*` subscription is offered, as the service publishes them: the enum of a subscription's `eventTypes`
 * in its OpenAPI document, less `*`. The outbox also holds internal types that other domains react to and no
 * subscription is ever sent (`storeOrder.confirmed`, …); those are owed to nobody.
 */
const offered = new WeakMap<Deployment, Promise<Set<string>>>();
function offeredTypes(d: Deployment): Promise<Set<string>> {
  let types = offered.get(d);
  if (!types) {
    types = d.api.patiently<unknown>('GET', '/api/store-suppliers/openapi.json').then((a) => {
      const found = new Set<string>();
      const walk = (x: unknown): void => {
        if (!x || typeof x !== 'object') return;
        const items = (x as { items?: { enum?: unknown[] } }).items;
        if (items?.enum?.includes('*')) for (const t of items.enum) if (typeof t === 'string' && t !== '*') found.add(t);
        for (const v of Object.values(x)) walk(v);
      };
      walk(a.body);
      if (!found.size) throw new Error(`the service's OpenAPI document (HTTP ${a.status}) names no event types a subscription may choose`);
      return found;
    });
    offered.set(d, types);
    types.catch(() => offered.delete(d)); // asked again next time
  }
  return types;
}

async function outboxFor(d: Deployment, subscriptionId: string): Promise<OutboxEvent[]> {
  const types = [...(await offeredTypes(d))];
  const r = await d.reader.query<OutboxEvent>(
    `SELECT o.id, o.seq::text AS seq, o.type, o.resource_key, o.created_at FROM event_outbox o JOIN event_subscriptions s ON s.store_id = o.store_id
      WHERE s.id = $1 AND o.created_at >= s.created_at AND o.type = ANY($2) ORDER BY o.seq`,
    [subscriptionId, types],
  );
  return r.rows;
}

async function deliveryRow(d: Deployment, subscriptionId: string, seq: string): Promise<string> {
  const r = await d.reader.query<DeliveryRow>(
    `SELECT status, attempts, response_status, last_error FROM event_deliveries WHERE subscription_id = $1 AND event_seq = $2`,
    [subscriptionId, seq],
  );
  const row = r.rows[0];
  return row
    ? `the service's delivery row is ${row.status} after ${row.attempts} attempts (last answer ${row.response_status ?? 'none'}${row.last_error ? `, ${row.last_error}` : ''})`
    : 'the service has no delivery row for it';
}

/** Events still owed to the subscriptions (for the settle phase): outbox events their receivers have not accepted. */
export async function eventsOwed(stores: Store[]): Promise<number> {
  let owed = 0;
  for (const store of stores) {
    for (const sub of store.subscriptions) {
      const got = new Set(sub.receiver.accepted().map((x) => x.eventId));
      owed += (await outboxFor(store.deployment, sub.id)).filter((e) => !got.has(e.id)).length;
    }
  }
  return owed;
}

export async function eventsDelivered(stores: Store[]): Promise<Verdict[]> {
  const missing: string[] = [];
  const disorder: string[] = [];
  let expected = 0;
  let attempts = 0;
  for (const store of stores) {
    for (const sub of store.subscriptions) {
      const r = sub.receiver;
      const outbox = await outboxFor(store.deployment, sub.id);
      expected += outbox.length;
      attempts += r.deliveries.length;
      const accepted = new Map<string, number>();
      for (const x of r.accepted()) if (!accepted.has(x.eventId)) accepted.set(x.eventId, x.order);
      for (const x of r.deliveries.filter((y) => y.status === 200 && !y.signed))
        missing.push(`receiver ${r.name} got event ${x.eventId} (${x.type}) with a signature that does not verify`);
      for (const e of outbox.filter((y) => !accepted.has(y.id))) {
        const tries = r.deliveries.filter((x) => x.eventId === e.id);
        missing.push(
          `event ${e.id} (${e.type} of ${e.resource_key}, seq ${e.seq}, written ${e.created_at.toISOString()}) for subscription ${sub.id} (store ${store.index}): receiver ${r.name} (${r.behaviour}) ` +
            `accepted it never; it got ${tries.length} attempts${tries.length ? ` answered ${tries.map((x) => x.status).join(', ')}` : ''}; ${await deliveryRow(store.deployment, sub.id, e.seq)}`,
        );
      }
      const byId = new Map(outbox.map((e) => [e.id, e]));
      const byResource = new Map<string, OutboxEvent[]>();
      for (const e of outbox) byResource.set(e.resource_key, [...(byResource.get(e.resource_key) ?? []), e]);
      for (const x of r.deliveries) {
        const e = byId.get(x.eventId);
        if (!e) continue;
        const earlier = (byResource.get(e.resource_key) ?? []).filter((y) => BigInt(y.seq) < BigInt(e.seq));
        const notYet = earlier.find((y) => (accepted.get(y.id) ?? Infinity) > x.order);
        if (notYet) {
          disorder.push(
            `subscription ${sub.id} (store ${store.index}), resource ${e.resource_key}: event ${e.id} (${e.type}, seq ${e.seq}) arrived as delivery #${x.order} at receiver ${r.name} ` +
              `before event ${notYet.id} (${notYet.type}, seq ${notYet.seq}) had been accepted (${accepted.has(notYet.id) ? `#${accepted.get(notYet.id)}` : 'never'})`,
          );
        }
      }
    }
  }
  const subs = stores.reduce((n, s) => n + s.subscriptions.length, 0);
  return [
    verdict(
      'every event delivered at least once',
      `${expected} events owed to ${subs} subscriptions by the outbox; ${attempts} delivery attempts received`,
      missing,
    ),
    verdict('events in order per resource', `${attempts} delivery attempts at ${subs} receivers`, disorder),
  ];
}
