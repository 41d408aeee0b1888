import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { routing as listSupplierOrders, supplierOrderQuery } from '../StoreSuppliers/actions/supplierOrder/getAll.operation';
import { callRouteAllItems } from '../StoreSuppliers/transport';
import { storeOf } from './parameters';
import type { SupplierOrderStatus } from '../StoreSuppliers/vocabulary';

/**
 * The trigger remembers at most this many paused orders. Only the newest this many orders waiting for
 * review are considered, so a store with more waiting at once never sees one emitted twice.
 */
export const MAX_REMEMBERED = 1000;

/** Kept in the workflow's static data of the node; `keys` is absent until the first emit or baseline. */
export interface TriggerState {
  /** Pauses (needsReview) waiting at the last emit or baseline. */
  keys?: string[];
  /** For each other event: `<_id>|<time it entered the status>` of the orders in it at the last emit. */
  byEvent?: Record<string, string[]>;
}

/** The events the trigger can start on: a supplier order reaching one of these statuses. */
export const TRIGGER_EVENTS = [
  'needsReview',
  'failed',
  'submitted',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
] as const satisfies readonly SupplierOrderStatus[];
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

interface ReviewEvent {
  at?: string;
  to?: string | null;
}

/** When the order last entered `status`: the time of the last event that moved it there. */
export function enteredAt(order: IDataObject, status: string): string {
  const events = Array.isArray(order.events) ? (order.events as ReviewEvent[]) : [];
  let at = '';
  for (const event of events) if (event.to === status && typeof event.at === 'string' && event.at > at) at = event.at;
  return at;
}

/** When the order last entered needsReview. */
export function pausedAt(order: IDataObject): string {
  return enteredAt(order, 'needsReview');
}

/** One event of one order: a pause as reviewKey says; any other status once per time it is entered. */
export function eventKey(order: IDataObject, event: TriggerEvent): string {
  return event === 'needsReview' ? reviewKey(order) : [order._id, enteredAt(order, event) || order.updatedAt].map((v) => String(v ?? '')).join('|');
}

/**
 * One pause of one supplier order: (id, attempt, reviewReason), plus the moment it paused, because a
 * retry keeps the attempt when the order may already exist at the supplier, and the same reason can
 * come back; every new pause is a new key, a pause that lasts keeps its key.
 */
export function reviewKey(order: IDataObject): string {
  return [order._id, order.attempt, order.reviewReason, pausedAt(order)].map((v) => String(v ?? '')).join('|');
}

const newestFirst =
  (event: TriggerEvent) =>
  (a: IDataObject, b: IDataObject): number => {
    const ta = enteredAt(a, event) || String(a.updatedAt ?? '');
    const tb = enteredAt(b, event) || String(b.updatedAt ?? '');
    return ta < tb ? 1 : ta > tb ? -1 : 0;
  };

/** Every supplier order of the store in the event's status now, newest first, reading every page first. */
export async function ordersIn(this: IPollFunctions, event: TriggerEvent): Promise<IDataObject[]> {
  const { integrationId, contractModel } = this.getNodeParameter('filters', {}) as IDataObject;
  const qs = supplierOrderQuery({ ...(event === 'needsReview' ? { needsReview: true } : { status: event }), integrationId, contractModel });
  const rows = await callRouteAllItems.call(this, listSupplierOrders, { storeId: storeOf(this) }, { qs });
  return rows
    .filter((o) => o.status === event)
    .sort(newestFirst(event))
    .slice(0, MAX_REMEMBERED);
}

function selectedEvents(this: IPollFunctions): TriggerEvent[] {
  const raw = this.getNodeParameter('events', ['needsReview']) as unknown;
  const chosen = (Array.isArray(raw) ? raw : [raw]).map(String);
  const events = TRIGGER_EVENTS.filter((e) => chosen.includes(e));
  return events.length ? events : ['needsReview'];
}

/**
 * Emits each supplier order once per event it reaches (a pause: once per pause). Each event has its own
 * keys: those of the orders in its status at the last emit (or at the baseline of the first activation,
 * which n8n saves with the activation), so the state stays bounded and changes only when the poll emits.
 * An order is seen in a status by a poll; a status it passes through between two polls is not emitted
 * (a poll runs every minute at the least; supplier statuses change in minutes to days). Emitted items
 * carry `event`. Manual runs answer the newest order of the first event that has one and leave the
 * state alone.
 */
export async function pollNeedsReview(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
  const events = selectedEvents.call(this);
  const found = new Map<TriggerEvent, IDataObject[]>();
  for (const event of events) found.set(event, await ordersIn.call(this, event));
  if (this.getMode() === 'manual') {
    for (const event of events) {
      const [newest] = found.get(event)!;
      if (newest) return [this.helpers.returnJsonArray([{ ...newest, event }])];
    }
    return null;
  }
  const state = this.getWorkflowStaticData('node') as TriggerState;
  const firstRun = state.keys === undefined && state.byEvent === undefined;
  const keysOf = (event: TriggerEvent) => found.get(event)!.map((o) => eventKey(o, event));
  const save = () => {
    for (const event of events) {
      if (event === 'needsReview') state.keys = keysOf(event);
      else state.byEvent = { ...(state.byEvent ?? {}), [event]: keysOf(event) };
    }
  };
  if (firstRun && this.getNodeParameter('firstActivation', 'emitWaiting') === 'baseline') {
    save();
    return null;
  }
  const fresh: Array<{ at: string; json: IDataObject }> = [];
  for (const event of events) {
    const known = new Set((event === 'needsReview' ? state.keys : state.byEvent?.[event]) ?? []);
    // An event added to the node later starts from what is there now, like a first activation.
    const addedLater = !firstRun && (event === 'needsReview' ? state.keys === undefined : state.byEvent?.[event] === undefined);
    if (addedLater && this.getNodeParameter('firstActivation', 'emitWaiting') === 'baseline') continue;
    for (const order of found.get(event)!) {
      if (!known.has(eventKey(order, event))) fresh.push({ at: enteredAt(order, event) || String(order.updatedAt ?? ''), json: { ...order, event } });
    }
  }
  if (fresh.length === 0) {
    if (events.some((e) => (e === 'needsReview' ? state.keys === undefined : state.byEvent?.[e] === undefined)) && !firstRun) save();
    return null;
  }
  save();
  fresh.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return [this.helpers.returnJsonArray(fresh.map((f) => f.json))];
}
