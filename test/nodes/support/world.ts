/** A real service and sandbox supplier for the node tests, and a way to run the node against them. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { StoreSuppliers } from '../../../nodes/StoreSuppliers/StoreSuppliers.node';
import { eventually, Sandbox, Service, startSandbox, startService } from '../../support/harness';
import { placeOrder, Shop, submit } from '../../support/orders';
import { Credentials, executeContext, Param, Recorder } from './context';

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
	out: INodeExecutionData[];
	json: IDataObject[];
	rec: Recorder;
}

/** Runs the Store Suppliers node once over the given items, as n8n would call execute. */
export async function runNode(
	credentials: Credentials,
	parameters: Record<string, Param>,
	opts: { items?: INodeExecutionData[]; continueOnFail?: boolean; onError?: 'continueErrorOutput' | 'continueRegularOutput' } = {},
): Promise<Run> {
	const { ctx, rec } = executeContext({ credentials, parameters, ...opts });
	const [out] = await new StoreSuppliers().execute.call(ctx);
	return { out, json: out.map((i) => i.json), rec };
}

/** Runs the node and answers the error it raised. */
export async function runNodeError(
	credentials: Credentials,
	parameters: Record<string, Param>,
	opts: { items?: INodeExecutionData[] } = {},
): Promise<{ error: any; rec: Recorder }> {
	const { ctx, rec } = executeContext({ credentials, parameters, ...opts });
	try {
		await new StoreSuppliers().execute.call(ctx);
	} catch (error) {
		return { error, rec };
	}
	throw new Error('The node did not fail');
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
