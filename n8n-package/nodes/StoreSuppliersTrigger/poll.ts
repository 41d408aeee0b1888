import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { apiRequestAllItems } from '../StoreSuppliers/transport';

/**
 * The trigger remembers at most this many paused orders. Only the newest this many orders waiting for
 * review are considered, so a store with more waiting at once never sees one emitted twice.
 */
export const MAX_REMEMBERED = 1000;

/** Kept in the workflow's static data of the node; `keys` is absent until the first emit or baseline. */
export interface TriggerState {
	keys?: string[];
}

interface ReviewEvent {
	at?: string;
	to?: string | null;
}

/** When the order last entered needsReview: the time of the last event that moved it there. */
export function pausedAt(order: IDataObject): string {
	const events = Array.isArray(order.events) ? (order.events as ReviewEvent[]) : [];
	let at = '';
	for (const event of events) if (event.to === 'needsReview' && typeof event.at === 'string' && event.at > at) at = event.at;
	return at;
}

/**
 * One pause of one supplier order: (id, attempt, reviewReason), plus the moment it paused, because a
 * retry keeps the attempt when the order may already exist at the supplier, and the same reason can
 * come back; every new pause is a new key, a pause that lasts keeps its key.
 */
export function reviewKey(order: IDataObject): string {
	return [order._id, order.attempt, order.reviewReason, pausedAt(order)].map((v) => String(v ?? '')).join('|');
}

function newestFirst(a: IDataObject, b: IDataObject): number {
	const ta = pausedAt(a) || String(a.updatedAt ?? '');
	const tb = pausedAt(b) || String(b.updatedAt ?? '');
	return ta < tb ? 1 : ta > tb ? -1 : 0;
}

/** Every supplier order of the store that waits for review now, reading every page first. */
export async function ordersWaitingForReview(this: IPollFunctions): Promise<IDataObject[]> {
	const storeId = String(this.getNodeParameter('store', '', { extractValue: true }) ?? '').trim();
	const filters = this.getNodeParameter('filters', {}) as IDataObject;
	const rows = await apiRequestAllItems.call(this, 'GET', `/api/store-suppliers/${encodeURIComponent(storeId)}/orders`, {
		qs: {
			needsReview: true,
			integrationId: filters.integrationId || undefined,
			contractModel: filters.contractModel || undefined,
		},
	});
	return rows.filter((o) => o.status === 'needsReview').sort(newestFirst);
}

/**
 * Emits each supplier order once per pause. The state changes only when the poll emits (or sets the
 * baseline at the first activation, which n8n saves with the activation), and holds only the keys of
 * the orders waiting at that moment, so it stays bounded. Manual runs answer the newest paused order
 * and leave the state alone.
 */
export async function pollNeedsReview(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const waiting = (await ordersWaitingForReview.call(this)).slice(0, MAX_REMEMBERED);
	if (this.getMode() === 'manual') {
		return waiting.length ? [this.helpers.returnJsonArray([waiting[0]])] : null;
	}
	const state = this.getWorkflowStaticData('node') as TriggerState;
	const keys = waiting.map(reviewKey);
	if (state.keys === undefined && this.getNodeParameter('firstActivation', 'emitWaiting') === 'baseline') {
		state.keys = keys;
		return null;
	}
	const known = new Set(state.keys ?? []);
	const fresh = waiting.filter((o) => !known.has(reviewKey(o)));
	if (fresh.length === 0) return null;
	state.keys = keys;
	return [this.helpers.returnJsonArray(fresh.reverse())];
}
