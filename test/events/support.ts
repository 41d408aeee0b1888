/** Shared by the event tests: a subscription made over HTTP, and checks on what a receiver got. */
import { webhooks } from '../../client/dist/cjs';
import { createStore, Developer, newDeveloper, seen, Service } from '../support/harness';
import { Received, Receiver } from '../support/receiver';

/**
 * Retries a hundred times faster than the defaults (10 s doubling, at most 6 h), a short time limit, a quick idle poll.
 * Services that deliver to the tests' loopback receivers are started with `privateTargets: true` besides.
 */
export const FAST_EVENTS = {
  EVENT_RETRY_BASE_MS: '100',
  EVENT_RETRY_MAX_MS: '216000',
  EVENT_DELIVERY_TIMEOUT_MS: '2000',
  EVENT_POLL_MS: '200',
};

export async function subscribe(
  svc: Service,
  key: string,
  storeId: string,
  url: string,
  eventTypes: string[] = ['*'],
): Promise<{ id: string; secret: string }> {
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/event-subscriptions`, { key, body: { url, eventTypes } });
  if (res.status !== 201) throw new Error(`subscribe answered ${res.status}: ${res.text}`);
  seen.secrets.add(res.body.result.secret);
  return { id: res.body.result.id, secret: res.body.result.secret };
}

/** The receivers a test file starts (`start`), all taken down at its end (`downAll`). */
export function receiverPool() {
  const started: Receiver[] = [];
  return {
    async start(): Promise<Receiver & { url: string }> {
      const r = await Receiver.start();
      started.push(r);
      return r;
    },
    async downAll(): Promise<void> {
      for (const r of started.splice(0)) await r.down();
    },
  };
}

/** A new developer's own store, and its subscriptions' base path. */
export async function ownStore(svc: Service): Promise<{ dev: Developer; storeId: string; base: string }> {
  const dev = await newDeveloper(svc);
  const storeId = await createStore(svc, dev.key);
  return { dev, storeId, base: `/api/store-suppliers/${storeId}/event-subscriptions` };
}

/** The events a receiver accepted, each verified with the JavaScript client's helper (a bad one throws). */
export async function verifiedEvents(received: Received[], secret: string): Promise<any[]> {
  const out = [];
  for (const r of received) if (r.status >= 200 && r.status < 300) out.push(await webhooks.verify(r.body, r.headers, secret));
  return out;
}

/** The resource an event is about: its ordering key. */
export const resourceOf = (e: any): string =>
  e.type.startsWith('supplierOrder.')
    ? `supplierOrder:${e.data._id}`
    : e.type.startsWith('orderPart.')
      ? `orderPart:${e.data.orderId}:${e.data.groupKey}`
      : e.type;

/** Per resource, the events in the order received; fails when one resource's events came out of their order. */
export function inOrderPerResource(events: any[]): Map<string, any[]> {
  const by = new Map<string, any[]>();
  for (const e of events) by.set(resourceOf(e), [...(by.get(resourceOf(e)) ?? []), e]);
  for (const [resource, list] of by) {
    const times = list.map((e) => e.createdAt);
    if (times.some((t, i) => i > 0 && t <= times[i - 1]))
      throw new Error(`events of ${resource} out of order: ${list.map((e) => `${e.type}@${e.createdAt}`).join(', ')}`);
    if (resource.startsWith('supplierOrder:')) {
      const lengths = list.map((e) => e.data.events.length);
      if (lengths.some((n, i) => i > 0 && n <= lengths[i - 1])) throw new Error(`history of ${resource} not growing: ${lengths.join(', ')}`);
    }
  }
  return by;
}
