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

export function connectionName(c: Connection): string {
	return `${c.supplierKey} (${c.mode})${c.accountLabel ? ` – ${c.accountLabel}` : ''}${c.enabled === false ? ' [off]' : ''}`;
}

async function connections(this: ILoadOptionsFunctions): Promise<Connection[]> {
	const storeId = currentStoreId.call(this);
	if (!storeId) return [];
	return (await apiRequest.call(this, 'GET', `/api/store-suppliers/${encodeURIComponent(storeId)}`)) as Connection[];
}

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
			return { name: `${String(e.name)} (${how})`, value: String(e.key), description: String(e.description ?? '') };
		});
	},

	/** The chosen store's connections, for filters. */
	async getConnections(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return (await connections.call(this)).map((c) => ({ name: connectionName(c), value: c.id }));
	},
};
