import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest } from '../transport';

interface Store {
	id: string;
	name: string;
	role?: string;
}

interface Connection {
	id: string;
	supplierKey: string;
	mode: string;
	accountLabel?: string;
	enabled?: boolean;
}

function currentStoreId(this: ILoadOptionsFunctions): string {
	const value = this.getCurrentNodeParameter('store', { extractValue: true }) as unknown;
	return value === undefined || value === null ? '' : String(value).trim();
}

function matches(filter: string | undefined, ...texts: Array<string | undefined>): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((t) => (t ?? '').toLowerCase().includes(needle));
}

/** `name (suffix)`, unless the name says it already (labels from the service may carry the mode). */
export function withSuffix(name: string, suffix: string): string {
	return name.toLowerCase().includes(`(${suffix.toLowerCase()})`) ? name : `${name} (${suffix})`;
}

export function connectionName(c: Connection): string {
	const label = c.accountLabel ? ` – ${c.accountLabel.replace(new RegExp(`\\s*\\(${c.mode}\\)\\s*$`, 'i'), '')}` : '';
	return `${c.supplierKey} (${c.mode})${label}${c.enabled === false ? ' [off]' : ''}`;
}

async function connections(this: ILoadOptionsFunctions): Promise<Connection[]> {
	const storeId = currentStoreId.call(this);
	if (!storeId) return [];
	return (await apiRequest.call(this, 'GET', `/api/store-suppliers/${encodeURIComponent(storeId)}`)) as Connection[];
}

/** One page (the newest 100) of a cursor-paged list of the chosen store, for the pickers. */
async function firstPage(this: ILoadOptionsFunctions, path: string, qs: IDataObject = {}): Promise<IDataObject[]> {
	const storeId = currentStoreId.call(this);
	if (!storeId) return [];
	const page = (await apiRequest.call(this, 'GET', path.replace('{storeId}', encodeURIComponent(storeId)), { qs: { ...qs, pageSize: 100 } })) as {
		items?: IDataObject[];
	};
	return page.items ?? [];
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export const listSearch = {
	/** Stores the key's owner owns or works on (GET /api/stores). */
	async searchStores(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const stores = (await apiRequest.call(this, 'GET', '/api/stores')) as Store[];
		return {
			results: stores
				.filter((s) => matches(filter, s.name, s.id))
				.map((s) => ({ name: s.role === 'staff' ? `${s.name} (staff)` : s.name, value: s.id })),
		};
	},

	/** The chosen store's supplier connections (GET /api/store-suppliers/:storeId). */
	async searchConnections(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const rows = await connections.call(this);
		return {
			results: rows
				.filter((c) => matches(filter, c.supplierKey, c.accountLabel, c.id, c.mode))
				.map((c) => ({ name: connectionName(c), value: c.id })),
		};
	},
};

/** Pickers for records only an ID names otherwise: the newest of each, searchable by their texts. */
export const recordSearch = {
	/** Supplier orders: those waiting for review first (with their reason), then the newest others. */
	async searchSupplierOrders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const path = '/api/store-suppliers/{storeId}/orders';
		const paused = await firstPage.call(this, path, { needsReview: true });
		const others = (await firstPage.call(this, path)).filter((o) => o.status !== 'needsReview');
		return {
			results: [...paused, ...others]
				.filter((o) => matches(filter, text(o._id), text(o.orderNumber), text(o.supplierKey), text(o.status), text(o.reviewReason)))
				.map((o) => ({
					name:
						o.status === 'needsReview'
							? `${text(o.orderNumber)} · ${text(o.supplierKey)} · needs review: ${text(o.reviewReason)}`
							: `${text(o.orderNumber)} · ${text(o.supplierKey)} · ${text(o.status)}`,
					value: text(o._id),
				})),
		};
	},

	/** Product links, newest first. */
	async searchProductLinks(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const rows = await firstPage.call(this, '/api/store-suppliers/{storeId}/links');
		return {
			results: rows
				.filter((l) => matches(filter, text(l.id), text(l.supplierProductId), text(l.productId), text(l.supplierKey)))
				.map((l) => ({ name: `${text(l.supplierProductId)} → product ${text(l.productId).slice(0, 8)}`, value: text(l.id) })),
		};
	},

	/** Import jobs, newest first, with their progress. */
	async searchImportJobs(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const rows = await firstPage.call(this, '/api/store-suppliers/{storeId}/imports');
		return {
			results: rows
				.filter((j) => matches(filter, text(j.id), text(j.status)))
				.map((j) => ({ name: `${text(j.createdAt).slice(0, 16).replace('T', ' ')} · ${text(j.status)} · ${text(j.done)}/${text(j.total)}`, value: text(j.id) })),
		};
	},

	/** Store orders: those needing attention first, then the newest others. */
	async searchStoreOrders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const path = '/api/store-orders/{storeId}';
		const attention = await firstPage.call(this, path, { needsAttention: true });
		const others = (await firstPage.call(this, path)).filter((o) => !o.needsAttention);
		return {
			results: [...attention, ...others]
				.filter((o) => matches(filter, text(o.id), text(o.number), text(o.status)))
				.map((o) => ({ name: `${text(o.number)} · ${text(o.status)}${o.needsAttention ? ' · needs attention' : ''}`, value: text(o.id) })),
		};
	},

	/** Store products, newest first. */
	async searchStoreProducts(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const rows = await firstPage.call(this, '/api/store-products/{storeId}');
		return {
			results: rows.filter((p) => matches(filter, text(p.id), text(p.title))).map((p) => ({ name: text(p.title), value: text(p.id) })),
		};
	},
};

export const loadOptions = {
	/** Suppliers of the catalogue, for Connect and Start Sign-In. */
	async getSuppliers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const storeId = currentStoreId.call(this);
		if (!storeId) return [];
		const entries = (await apiRequest.call(
			this,
			'GET',
			`/api/store-suppliers/${encodeURIComponent(storeId)}/catalogue`,
		)) as IDataObject[];
		return entries.map((e) => {
			const capabilities = (e.capabilities ?? {}) as IDataObject;
			const how = capabilities.authKind === 'signIn' ? 'sign-in' : 'API key';
			return { name: withSuffix(String(e.name), how), value: String(e.key), description: String(e.description ?? '') };
		});
	},

	/** The chosen store's connections, for filters. */
	async getConnections(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return (await connections.call(this)).map((c) => ({ name: connectionName(c), value: c.id }));
	},
};
