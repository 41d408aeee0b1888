import type { INodeProperties } from 'n8n-workflow';

const OPTIONAL = {
  additionalFields: { displayName: 'Additional Fields', placeholder: 'Add Field' },
  filters: { displayName: 'Filters', placeholder: 'Add Filter' },
  options: { displayName: 'Options', placeholder: 'Add Option' },
  updateFields: { displayName: 'Update Fields', placeholder: 'Add Field', description: 'Fields left out keep their values' },
} as const;

/** n8n's collection of optional fields, under the name n8n's nodes give each kind (Update Fields: those left out keep their values). */
export function optionalFields(name: keyof typeof OPTIONAL, options: INodeProperties[]): INodeProperties {
  return { ...OPTIONAL[name], name, type: 'collection', default: {}, options };
}

export const supplierKeyOption: INodeProperties = {
  displayName: 'Supplier Name or ID',
  name: 'supplierKey',
  type: 'options',
  typeOptions: { loadOptionsMethod: 'getSuppliers', loadOptionsDependsOn: ['store.value'] },
  default: '',
  required: true,
  description:
    'The supplier, as the catalogue names it. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const modeOption: INodeProperties = {
  displayName: 'Mode',
  name: 'mode',
  type: 'options',
  options: [
    { name: 'Live', value: 'live', description: 'Real orders at the supplier' },
    { name: 'Test', value: 'test', description: "Orders go to the supplier's test environment, where it has one" },
  ],
  default: 'live',
};

export const supplierApiKeyField: INodeProperties = {
  displayName: 'Supplier API Key',
  name: 'supplierApiKey',
  type: 'string',
  typeOptions: { password: true },
  default: '',
  required: true,
  description: "The API key of the merchant's account at the supplier; it is checked with the supplier before it is stored",
};

export const priceRuleField: INodeProperties = {
  displayName: 'Price Rule',
  name: 'priceRule',
  type: 'collection',
  placeholder: 'Add Price Rule Field',
  // Shown in the editor from the start: twice the cost, rounded up to x.99 (the service's own default
  // when no rule is sent). Removing every field sends no rule, which gives the same prices.
  default: { multiplier: '2', endingMinor: 99 },
  description:
    "How the store's price is worked out from the supplier's cost (amounts in minor units, e.g. cents). Without a rule the service prices at twice the cost, rounded up to x.99.",
  options: [
    {
      displayName: 'Compare-At Multiplier',
      name: 'compareAtMultiplier',
      type: 'string',
      default: '',
      placeholder: 'e.g. 1.3',
      description: 'Compare-at price as a multiple of the final price; empty for none',
    },
    {
      displayName: 'Ending (Minor Units)',
      name: 'endingMinor',
      type: 'number',
      typeOptions: { minValue: 0 },
      default: 99,
      description: 'Round the price up to this ending, e.g. 99 for x.99',
    },
    {
      displayName: 'Markup (Minor Units)',
      name: 'markupMinor',
      type: 'number',
      typeOptions: { minValue: 0 },
      default: 0,
      description: 'Added after the multiplier',
    },
    {
      displayName: 'Minimum Profit (Minor Units)',
      name: 'minimumProfitMinor',
      type: 'number',
      typeOptions: { minValue: 0 },
      default: 0,
      description: 'The price never falls below cost plus this amount',
    },
    {
      displayName: 'Multiplier',
      name: 'multiplier',
      type: 'string',
      default: '2',
      placeholder: 'e.g. 2.5',
      description: 'Multiplies the cost; a decimal with up to 4 decimals',
    },
  ],
};

export const syncField: INodeProperties = {
  displayName: 'Sync',
  name: 'sync',
  type: 'collection',
  placeholder: 'Add Sync Switch',
  default: {},
  description: 'Which fields the hourly sync may change; switches left out keep their defaults (all but Title)',
  options: [
    {
      displayName: 'Availability',
      name: 'availability',
      type: 'boolean',
      default: true,
      description: 'Whether to set stock to 0 for variants the supplier no longer offers',
    },
    {
      displayName: 'Cost',
      name: 'cost',
      type: 'boolean',
      default: true,
      description: 'Whether to keep the recorded supplier cost of each variant current',
    },
    {
      displayName: 'Price',
      name: 'price',
      type: 'boolean',
      default: true,
      description: 'Whether to re-price store variants from the cost through the price rule',
    },
    {
      displayName: 'Stock',
      name: 'stock',
      type: 'boolean',
      default: true,
      description: "Whether to copy the supplier's stock to the store variants",
    },
    {
      displayName: 'Title',
      name: 'title',
      type: 'boolean',
      default: false,
      description: "Whether to copy the supplier's product title",
    },
  ],
};

export const productsField: INodeProperties = {
  displayName: 'Products',
  name: 'products',
  type: 'fixedCollection',
  typeOptions: { multipleValues: true },
  placeholder: 'Add Product',
  default: { product: [{ supplierProductId: '' }] },
  required: true,
  description: 'The supplier products to price or import (up to 50 at once for preview)',
  options: [
    {
      displayName: 'Product',
      name: 'product',
      values: [
        {
          displayName: 'Supplier Product ID',
          name: 'supplierProductId',
          type: 'string',
          default: '',
          placeholder: 'e.g. SBX-P00017',
          required: true,
        },
        {
          displayName: 'Variant IDs',
          name: 'variantIds',
          type: 'string',
          default: '',
          placeholder: 'e.g. SBX-P00017-V1, SBX-P00017-V2',
          description: 'Comma-separated supplier variant IDs to take; empty for all variants',
        },
      ],
    },
  ],
};

export const variantsField: INodeProperties = {
  displayName: 'Variants',
  name: 'variants',
  type: 'fixedCollection',
  typeOptions: { multipleValues: true },
  placeholder: 'Add Variant Mapping',
  default: {},
  description: 'Each store variant mapped to exactly one supplier variant',
  options: [
    {
      displayName: 'Variant',
      name: 'variant',
      values: [
        {
          displayName: 'Store Variant ID',
          name: 'storeVariantId',
          type: 'string',
          default: '',
        },
        {
          displayName: 'Supplier Variant ID',
          name: 'supplierVariantId',
          type: 'string',
          default: '',
          placeholder: 'e.g. SBX-P00017-V1',
        },
      ],
    },
  ],
};

export const supplierProductIdField: INodeProperties = {
  displayName: 'Supplier Product ID',
  name: 'supplierProductId',
  type: 'string',
  default: '',
  required: true,
  placeholder: 'e.g. SBX-P00017',
};

/** The routing rules, as the service names them: how a part's supplier is chosen among a link's primary and alternates. */
export const ROUTING_RULE_OPTIONS = [
  { name: 'Fastest Within a Cost Cap', value: 'fastest', description: 'The fastest delivery among candidates costing at most the cap above the cheapest' },
  { name: 'Lowest Landed Cost', value: 'lowestLandedCost', description: "Items plus shipping to the destination, in the store's currency" },
  { name: 'Primary', value: 'primary', description: "The link's own supplier; backups only by rerouting (the default)" },
];

/** The cap of the fastest rule, shown only with it (`rule`: the name of the field that holds the rule). */
export function routingCapField(rule: string): INodeProperties {
  return {
    displayName: 'Max Cost Above Cheapest (%)',
    name: 'maxCostAboveCheapestPercent',
    type: 'number',
    typeOptions: { minValue: 0, maxValue: 1000 },
    default: 10,
    description: 'How much dearer than the cheapest candidate the fastest may be, in percent',
    displayOptions: { show: { [rule]: ['fastest'] } },
  };
}

/** A product link's own routing rule, or the store's (Store's Rule). */
export const linkRoutingField: INodeProperties = {
  displayName: 'Routing Rule',
  name: 'routingRule',
  type: 'options',
  options: [...ROUTING_RULE_OPTIONS, { name: "Store's Rule", value: 'store', description: "Follow the store's routing rule (Connection › Update Routing)" }],
  default: 'store',
  description: "How this product's supplier is chosen, overriding the store's rule. Dispatch chooses the part's supplier by it before sending.",
};
