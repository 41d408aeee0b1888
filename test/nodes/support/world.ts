/** A real service and sandbox supplier for the node tests, and a way to run the node against them. */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { StoreSuppliers } from '../../../nodes/StoreSuppliers/StoreSuppliers.node';
import { eventually, Sandbox, Service, startSandbox, startService } from '../../support/harness';
import { placeOrder, Shop, submit } from '../../support/orders';
import type { Credentials, Param } from './context';
import { recorder, type Recorder, runInEngine } from './engine';

export interface World {
	sandbox: Sandbox;
	svc: Service;
	stop(): Promise<void>;
}

export async function startWorld(label: string): Promise<World> {
	const sandbox = await startSandbox();
	const svc = await startService({ label, sandbox });
	return {
		sandbox,
		svc,
		async stop() {
			await svc.stop();
			await sandbox.close();
		},
	};
}

export const credentialsOf = (svc: Service, apiKey: string): Credentials => ({ baseUrl: svc.baseUrl, apiKey });

export interface Run {
	/** The success output's items. */
	out: INodeExecutionData[];
	json: IDataObject[];
	/** The error output's items (On Error: Continue (using error output)). */
	errorOutput: INodeExecutionData[];
	rec: Recorder;
}

/**
 * A parameter given per item (a function of the item index) becomes an n8n expression picking the
 * item's value, so n8n resolves it per item as it would `{{ $json.x }}`. A collection gets one expression
 * per field, as n8n's editor offers it (a whole collection cannot be an expression).
 */
function asExpressions(parameters: Record<string, Param>, count: number): INode['parameters'] {
	const perItem = (values: unknown[]) => `={{ ${JSON.stringify(values)}[$itemIndex] }}`;
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(parameters)) {
		if (typeof value !== 'function') {
			out[name] = value as IDataObject;
			continue;
		}
		const values = Array.from({ length: count }, (_, i) => (value as (i: number) => unknown)(i));
		if (values.every((v) => v && typeof v === 'object' && !Array.isArray(v) && !('__rl' in v))) {
			const fields = [...new Set(values.flatMap((v) => Object.keys(v as IDataObject)))];
			out[name] = Object.fromEntries(fields.map((f) => [f, perItem(values.map((v) => (v as IDataObject)[f]))]));
		} else out[name] = perItem(values);
	}
	return out as INode['parameters'];
}

async function runOnce(credentials: Credentials, parameters: Record<string, Param>, opts: RunOptions) {
	const items = opts.items ?? [{ json: {} }];
	const rec = recorder();
	const run = await runInEngine({
		type: new StoreSuppliers(),
		node: {
			name: 'Store Suppliers',
			type: 'n8n-nodes-store-suppliers.storeSuppliers',
			parameters: asExpressions(parameters, items.length),
			...(opts.onError ? { onError: opts.onError } : opts.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
		items,
		credentials: { baseUrl: credentials.baseUrl, apiKey: credentials.apiKey },
		rec,
	});
	return { run, rec };
}

interface RunOptions {
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	onError?: 'continueErrorOutput' | 'continueRegularOutput';
}

/** Runs the Store Suppliers node once over the given items, in n8n's engine. */
export async function runNode(credentials: Credentials, parameters: Record<string, Param>, opts: RunOptions = {}): Promise<Run> {
	const { run, rec } = await runOnce(credentials, parameters, opts);
	if (run.error) throw Object.assign(new Error(`The node failed: ${run.error.message}`), { cause: run.error });
	const [out = [], errorOutput = []] = run.outputs;
	return { out, json: out.map((i) => i.json), errorOutput, rec };
}

/** Runs the node and answers the error its run ended with (as n8n keeps it in the run data). */
export async function runNodeError(
	credentials: Credentials,
	parameters: Record<string, Param>,
	opts: { items?: INodeExecutionData[] } = {},
): Promise<{ error: any; rec: Recorder }> {
	const { run, rec } = await runOnce(credentials, parameters, opts);
	if (!run.error) throw new Error('The node did not fail');
	return { error: run.error, rec };
}

/**
 * The supplier order with the given id once `ready` holds for it. Submit and retry may answer while the
 * dispatch job is still between steps (a payNow order shows `submitted` for a moment before its payment
 * fails), so set-up steps that need a settled order read it until it is.
 */
export async function supplierOrderWhen(svc: Service, shop: Shop, id: string, ready: (so: any) => boolean, what: string): Promise<any> {
	return await eventually(async () => {
		const res = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key });
		return res.status === 200 && ready(res.body.result) ? res.body.result : undefined;
	}, 30000, what);
}

/** Places a store order and submits its supplier part with payNow; answers the supplier order once it waits for review. */
export async function pausedOrder(svc: Service, shop: Shop, opts: { productIndex?: number } = {}): Promise<any> {
	const order = await placeOrder(svc, shop, opts);
	const res = await submit(svc, shop, order.id, { payNow: true });
	if (res.status >= 300) throw new Error(`submit answered ${res.status}: ${res.text}`);
	return await supplierOrderWhen(svc, shop, res.body.result._id, (so) => so.status === 'needsReview', 'the supplier order to pause');
}
