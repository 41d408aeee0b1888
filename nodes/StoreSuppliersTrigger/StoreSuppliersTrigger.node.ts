import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { storeRLC } from '../StoreSuppliers/actions/common.descriptions';
import { SHARED_ORDER_FILTERS } from '../StoreSuppliers/actions/supplierOrder/getAll.operation';
import { listSearch, loadOptions } from '../StoreSuppliers/methods';
import { pollNeedsReview } from './poll';

export class StoreSuppliersTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Store Suppliers Trigger',
		name: 'storeSuppliersTrigger',
		icon: { light: 'file:../StoreSuppliers/storeSuppliers.svg', dark: 'file:../StoreSuppliers/storeSuppliers.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + ($parameter["events"] || ["needsReview"]).join(", ")}}',
		description: 'Starts the workflow when a supplier order needs review, fails, is submitted, confirmed, shipped, delivered or cancelled',
		defaults: { name: 'Store Suppliers Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'storeSuppliersApi', required: true }],
		properties: [
			{
				displayName:
					'Emits each supplier order once per event it reaches, with the event in `event` (once per pause: an order that pauses again after a retry is emitted again)',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			storeRLC,
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{ name: 'Cancelled', value: 'cancelled', description: 'The supplier order was cancelled' },
					{ name: 'Confirmed', value: 'confirmed', description: 'The supplier accepted the order' },
					{ name: 'Delivered', value: 'delivered', description: 'The parcel was delivered' },
					{ name: 'Failed', value: 'failed', description: 'Sending failed for good' },
					{ name: 'Needs Review', value: 'needsReview', description: 'The order stopped and waits for a person (review reason and message)' },
					{ name: 'Shipped', value: 'shipped', description: 'The supplier shipped it (carrier and tracking in `shipping`)' },
					{ name: 'Submitted', value: 'submitted', description: 'The order was sent to the supplier' },
				],
				default: ['needsReview'],
				description: 'The supplier order events to start the workflow on',
			},
			{
				displayName: 'On First Activation',
				name: 'firstActivation',
				type: 'options',
				options: [
					{
						name: 'Emit Orders Already There',
						value: 'emitWaiting',
						description: 'The first poll emits every supplier order already in a chosen status',
					},
					{
						name: 'Only Note Orders Already There',
						value: 'baseline',
						description: 'The first poll remembers the orders already in a chosen status without emitting them',
					},
				],
				default: 'emitWaiting',
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [
					...SHARED_ORDER_FILTERS,
				],
			},
		],
	};

	methods = { listSearch, loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollNeedsReview.call(this);
	}
}
