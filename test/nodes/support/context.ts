/**
 * A small stand-in for the parts of n8n's execution contexts that the nodes use. Its HTTP helper does
 * what n8n's httpRequestWithAuthentication does for the options the transport passes: it applies the
 * credential's own `authenticate` definition (the X-API-Key header) and performs a REAL request with
 * fetch, against a real service. Every request is recorded so tests can check method, path, query and
 * body, and every answer goes to the harness's leak scan.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';

import { StoreSuppliersApi } from '../../../credentials/StoreSuppliersApi.credentials';
import { seen } from '../../support/harness';

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	body: unknown;
	status: number;
	headers: Record<string, string>;
}

export interface Credentials {
	baseUrl: string;
	apiKey: string;
}

/** A parameter value, or a function of the item index (what an expression would give per item). */
export type Param = unknown | ((itemIndex: number) => unknown);

export interface Recorder {
	requests: RecordedRequest[];
	/** Requests whose path starts with the given prefix. */
	to(pathPrefix: string): RecordedRequest[];
	last(): RecordedRequest;
	clear(): void;
}

const credentialType = new StoreSuppliersApi();

/** Resolves the `={{$credentials.x}}` expressions the credential's authenticate block uses. */
function resolveCredentialExpression(template: string, credentials: ICredentialDataDecryptedObject): string {
	if (!template.startsWith('=')) return template;
	return template.slice(1).replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, name: string) => String(credentials[name] ?? ''));
}

function recorder(): Recorder {
	const requests: RecordedRequest[] = [];
	return {
		requests,
		to: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
		last: () => requests[requests.length - 1],
		clear: () => requests.splice(0, requests.length),
	};
}

/** n8n's httpRequestWithAuthentication, for the options this package uses, as a real HTTP call. */
function httpHelper(credentials: ICredentialDataDecryptedObject, rec: Recorder) {
	return async function httpRequestWithAuthentication(type: string, options: IHttpRequestOptions): Promise<unknown> {
		if (type !== credentialType.name) throw new Error(`Unexpected credential type ${type}`);
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(options.headers ?? {})) headers[name] = String(value);
		for (const [name, value] of Object.entries(credentialType.authenticate.properties.headers ?? {})) {
			headers[name] = resolveCredentialExpression(String(value), credentials);
		}
		const url = new URL(options.url, options.baseURL);
		for (const [key, value] of Object.entries(options.qs ?? {})) {
			if (value !== undefined) url.searchParams.set(key, String(value));
		}
		let payload: string | undefined;
		if (options.body !== undefined) {
			payload = JSON.stringify(options.body);
			headers['Content-Type'] = 'application/json';
		}
		if (options.json) headers.Accept = 'application/json';
		const res = await fetch(url, { method: options.method ?? 'GET', headers, body: payload });
		const text = await res.text();
		let body: unknown = text;
		if (text && (options.json || res.headers.get('content-type')?.includes('json'))) {
			try {
				body = JSON.parse(text);
			} catch {
				body = text;
			}
		}
		rec.requests.push({
			method: options.method ?? 'GET',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams.entries()),
			body: options.body,
			status: res.status,
			headers,
		});
		seen.responses.push({ route: `${options.method ?? 'GET'} ${url.pathname}`, text });
		if (res.status >= 400 && !options.ignoreHttpStatusErrors) {
			throw Object.assign(new Error(`Request failed with status code ${res.status}`), { httpCode: String(res.status), body });
		}
		if (options.returnFullResponse) {
			return { statusCode: res.status, statusMessage: res.statusText, headers: Object.fromEntries(res.headers.entries()), body };
		}
		return body;
	};
}

function valueOf(param: Param, itemIndex: number): unknown {
	return typeof param === 'function' ? (param as (i: number) => unknown)(itemIndex) : param;
}

/** What getNodeParameter answers: the parameter, a fallback, and resource locators reduced to their value. */
function parameter(
	parameters: Record<string, Param>,
	name: string,
	itemIndex: number,
	fallback: unknown,
	options?: { extractValue?: boolean },
): unknown {
	if (!(name in parameters)) {
		if (fallback === undefined) throw new Error(`Could not get parameter "${name}"`);
		return fallback;
	}
	const value = valueOf(parameters[name], itemIndex);
	if (options?.extractValue && value && typeof value === 'object' && '__rl' in value) {
		return (value as { value: unknown }).value;
	}
	return value;
}

function nodeOf(type: string, parameters: Record<string, Param>): INode {
	return {
		id: 'test-node',
		name: type.endsWith('Trigger') ? 'Store Suppliers Trigger' : 'Store Suppliers',
		type: `n8n-nodes-store-suppliers.${type}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
	};
}

function credentialsOf(c: Credentials): ICredentialDataDecryptedObject {
	return { apiKey: c.apiKey, baseUrl: c.baseUrl };
}

/** A resource locator value as n8n stores it. */
export const rl = (value: string, mode: 'list' | 'id' = 'id') => ({ __rl: true, mode, value });

export function executeContext(opts: {
	credentials: Credentials;
	parameters: Record<string, Param>;
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	/** The node's On Error setting (n8n sets continueOnFail for both continue settings). */
	onError?: INode['onError'];
}): { ctx: IExecuteFunctions; rec: Recorder } {
	const rec = recorder();
	const creds = credentialsOf(opts.credentials);
	const items = opts.items ?? [{ json: {} }];
	const node = { ...nodeOf('storeSuppliers', opts.parameters), ...(opts.onError ? { onError: opts.onError } : {}) };
	const ctx = {
		getInputData: () => items,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown, options?: { extractValue?: boolean }) =>
			parameter(opts.parameters, name, itemIndex, fallback, options),
		getCredentials: async (type: string) => {
			if (type !== credentialType.name) throw new Error(`Unexpected credential type ${type}`);
			return creds;
		},
		getNode: () => node,
		continueOnFail: () => opts.continueOnFail ?? false,
		helpers: {
			httpRequestWithAuthentication: httpHelper(creds, rec),
			returnJsonArray: (data: IDataObject | IDataObject[]) => (Array.isArray(data) ? data : [data]).map((json) => ({ json })),
		},
	};
	return { ctx: ctx as unknown as IExecuteFunctions, rec };
}

export interface PollContext {
	ctx: IPollFunctions;
	rec: Recorder;
	/** How many times the poll asked for its static data. */
	staticDataReads: () => number;
}

export function pollContext(opts: {
	credentials: Credentials;
	parameters: Record<string, Param>;
	staticData: IDataObject;
	mode?: 'trigger' | 'manual';
}): PollContext {
	const rec = recorder();
	const creds = credentialsOf(opts.credentials);
	const node = nodeOf('storeSuppliersTrigger', opts.parameters);
	let reads = 0;
	const ctx = {
		getNodeParameter: (name: string, fallback?: unknown, options?: { extractValue?: boolean }) =>
			parameter(opts.parameters, name, 0, fallback, options),
		getCredentials: async () => creds,
		getNode: () => node,
		getMode: () => opts.mode ?? 'trigger',
		getActivationMode: () => 'activate',
		getWorkflowStaticData: (type: string) => {
			if (type !== 'node') throw new Error(`Unexpected static data type ${type}`);
			reads++;
			return opts.staticData;
		},
		helpers: {
			httpRequestWithAuthentication: httpHelper(creds, rec),
			returnJsonArray: (data: IDataObject | IDataObject[]) => (Array.isArray(data) ? data : [data]).map((json) => ({ json })),
		},
	};
	return { ctx: ctx as unknown as IPollFunctions, rec, staticDataReads: () => reads };
}

export function loadOptionsContext(opts: { credentials: Credentials; parameters: Record<string, Param> }): {
	ctx: ILoadOptionsFunctions;
	rec: Recorder;
} {
	const rec = recorder();
	const creds = credentialsOf(opts.credentials);
	const node = nodeOf('storeSuppliers', opts.parameters);
	const ctx = {
		getCurrentNodeParameter: (name: string, options?: { extractValue?: boolean }) =>
			name in opts.parameters ? parameter(opts.parameters, name, 0, undefined, options) : undefined,
		getNodeParameter: (name: string, fallback?: unknown, options?: { extractValue?: boolean }) =>
			parameter(opts.parameters, name, 0, fallback, options),
		getCredentials: async () => creds,
		getNode: () => node,
		helpers: { httpRequestWithAuthentication: httpHelper(creds, rec) },
	};
	return { ctx: ctx as unknown as ILoadOptionsFunctions, rec };
}
