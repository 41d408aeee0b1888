import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { callRoute, type Route } from '../../transport';
import { optionalFields } from '../common.descriptions';
import { commaList, connectionParams } from '../helpers';
import { connectionRLC } from '../locator';
import { DEFAULT_REROUTE_REASONS, REROUTE_REASONS, REVIEW_REASONS } from '../../vocabulary';
import { titleOf } from '../options';

/** The reasons a reroute rule may list, from the vocabulary: named from the reason, the opt-in ones said so. */
const REROUTE_OPTIONS = REROUTE_REASONS.map((r) => ({ name: `${titleOf(r)}${REVIEW_REASONS[r].reroute === 'optIn' ? ' (Opt-In)' : ''}`, value: r })).sort(
  (a, b) => a.name.localeCompare(b.name),
);

export const routing: Route = { operationId: 'changeSupplierAutomation', method: 'PUT', path: '/api/store-suppliers/{storeId}/{id}/automation' };

const properties: INodeProperties[] = [
  connectionRLC,
  optionalFields('updateFields', [
    {
      displayName: 'Allow Unpaid Orders',
      name: 'allowUnpaidOrders',
      type: 'boolean',
      default: false,
      description: 'Whether to send (and pay) orders whose shopper has not paid online, such as cash on delivery',
    },
    {
      displayName: 'Automatic Payment',
      name: 'automaticPayment',
      type: 'boolean',
      default: false,
      description: 'Whether to pay the supplier from the balance once the order is created',
    },
    {
      displayName: 'Cost Limit (Minor Units)',
      name: 'costLimitMinor',
      type: 'number',
      typeOptions: { minValue: 0 },
      default: 0,
      description: 'Orders costing more than this pause with costAboveLimit; in minor units, e.g. cents',
    },
    {
      displayName: 'Cost Limit Currency',
      name: 'costLimitCurrency',
      type: 'string',
      default: 'USD',
      description: 'ISO currency code of the cost limit',
    },
    {
      displayName: 'Excluded Countries',
      name: 'excludedCountries',
      type: 'string',
      default: '',
      placeholder: 'e.g. FR, DE',
      description: 'Comma-separated ISO 3166-1 alpha-2 codes; orders to them pause with destinationUnsupported. Replaces the list.',
    },
    {
      displayName: 'Level',
      name: 'level',
      type: 'options',
      options: [
        { name: 'Automatic', value: 'automatic', description: 'Send a supplier part once the store order is confirmed' },
        { name: 'Manual', value: 'manual', description: 'Wait for Submit' },
        { name: 'Off', value: 'off', description: 'Never send' },
      ],
      default: 'manual',
    },
    {
      displayName: 'Remove Cost Limit',
      name: 'removeCostLimit',
      type: 'boolean',
      default: false,
      description: 'Whether to remove the cost limit',
    },
    {
      displayName: 'Reroute Rule',
      name: 'reroute',
      type: 'fixedCollection',
      default: {},
      placeholder: 'Set Reroute Rule',
      description:
        "Which pauses of this connection's order parts go to the link's backup suppliers (alternates), and how much dearer one may be; replaces the rule",
      options: [
        {
          displayName: 'Rule',
          name: 'rule',
          values: [
            {
              displayName: 'Max Cost Increase (%)',
              name: 'maxCostIncreasePercent',
              type: 'number',
              typeOptions: { minValue: 0, maxValue: 1000 },
              default: 10,
              description: "How much dearer than the primary's cost an alternate may be, in percent; never above the alternate connection's cost limit",
            },
            {
              displayName: 'Reasons',
              name: 'reasons',
              type: 'multiOptions',
              options: REROUTE_OPTIONS,
              default: [...DEFAULT_REROUTE_REASONS],
              description: 'The review reasons that reroute; none: this connection never reroutes by itself',
            },
          ],
        },
      ],
    },
    {
      displayName: 'Shipping Method',
      name: 'shippingMethod',
      type: 'options',
      options: [
        { name: 'Cheapest', value: 'cheapest', description: 'The cheapest service the supplier quotes for the order' },
        { name: 'Fastest', value: 'fastest', description: 'The service with the shortest longest-delivery time quoted, then the cheapest' },
        { name: 'Named Service', value: 'named', description: "One service, named as the supplier's freight quote names it" },
      ],
      default: 'cheapest',
      description:
        "Which of the supplier's shipping services an order takes, for suppliers that quote several (CJ, AliExpress, Printful); an order the rule finds no service for pauses with destinationUnsupported",
    },
    {
      displayName: 'Shipping Service',
      name: 'shippingService',
      type: 'string',
      default: '',
      placeholder: 'e.g. CAINIAO_STANDARD',
      description: "The supplier's name of the service, for Shipping Method Named Service",
      displayOptions: { show: { shippingMethod: ['named'] } },
    },
  ]),
];

export const description = updateDisplayOptions({ show: { resource: ['connection'], operation: ['updateAutomation'] } }, properties);

/** The service's shape of the rule: `{ rule }`, or `{ rule: 'named', service }` with the service given. */
function shippingMethodOf(this: IExecuteFunctions, fields: IDataObject, itemIndex: number): IDataObject {
  const rule = String(fields.shippingMethod);
  if (rule !== 'named') return { rule };
  const service = String(fields.shippingService ?? '').trim();
  if (!service) throw new NodeOperationError(this.getNode(), 'Shipping Service is required when Shipping Method is Named Service', { itemIndex });
  return { rule, service };
}

/** Changes how orders are sent and the limits that stop them; only the fields given change. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
  const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
  const body: IDataObject = {};
  if (fields.level !== undefined) body.level = fields.level;
  if (fields.automaticPayment !== undefined) body.automaticPayment = fields.automaticPayment;
  if (fields.allowUnpaidOrders !== undefined) body.allowUnpaidOrders = fields.allowUnpaidOrders;
  if (fields.excludedCountries !== undefined) {
    body.excludedCountries = commaList(fields.excludedCountries).map((c) => c.toUpperCase());
  }
  if (fields.removeCostLimit === true) {
    body.costLimit = null;
  } else if (fields.costLimitMinor !== undefined) {
    body.costLimit = {
      amountMinor: fields.costLimitMinor,
      currency: String(fields.costLimitCurrency ?? 'USD').toUpperCase(),
    };
  }
  const rule = (fields.reroute as { rule?: IDataObject } | undefined)?.rule;
  if (rule) body.reroute = { reasons: commaList(rule.reasons), maxCostIncreasePercent: Number(rule.maxCostIncreasePercent ?? 10) };
  if (fields.shippingMethod !== undefined) body.shippingMethod = shippingMethodOf.call(this, fields, itemIndex);
  if (Object.keys(body).length === 0) {
    throw new NodeOperationError(this.getNode(), 'Add at least one field to update', { itemIndex });
  }
  const params = connectionParams.call(this, itemIndex);
  return (await callRoute.call(this, routing, params, { body, itemIndex })) as IDataObject;
}
