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
		subtitle: 'Supplier order needs review',
		description: 'Starts the workflow when a supplier order stops and waits for review',
		defaults: { name: 'Store Suppliers Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'storeSuppliersApi', required: true }],
		properties: [
			{
				displayName:
					'Emits each supplier order once when it enters Needs Review (once per pause: an order that pauses again after a retry is emitted again)',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			storeRLC,
			{
				displayName: 'On First Activation',
				name: 'firstActivation',
				type: 'options',
				options: [
					{
						name: 'Emit Orders Already Waiting',
						value: 'emitWaiting',
						description: 'The first poll emits every supplier order that already waits for review',
					},
					{
						name: 'Only Note Orders Already Waiting',
						value: 'baseline',
						description: 'The first poll remembers the orders already waiting without emitting them',
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
