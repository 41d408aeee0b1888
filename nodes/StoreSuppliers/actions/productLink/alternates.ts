import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** Backup supplier variants of a link (create and update): tried in the order listed when a part pauses. */
export const alternatesField: INodeProperties = {
  displayName: 'Alternates',
  name: 'alternates',
  type: 'fixedCollection',
  typeOptions: { multipleValues: true, sortable: true },
  placeholder: 'Add Backup Supplier Variant',
  default: {},
  description:
    "Backup supplier variants for a store variant, on another connection of the store; a paused order part goes to them in this order (the connection's reroute rule says which pauses). On update the list replaces the link's alternates.",
  options: [
    {
      displayName: 'Alternate',
      name: 'alternate',
      values: [
        {
          displayName: 'Store Variant ID',
          name: 'storeVariantId',
          type: 'string',
          default: '',
        },
        {
          displayName: 'Connection Name or ID',
          name: 'connectionId',
          type: 'options',
          typeOptions: { loadOptionsMethod: 'getConnections', loadOptionsDependsOn: ['store.value'] },
          default: '',
          description:
            'Another connection of the store than the link\'s own. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
        },
        {
          displayName: 'Supplier Product ID',
          name: 'supplierProductId',
          type: 'string',
          default: '',
          description: "The product in that supplier's catalogue",
        },
        {
          displayName: 'Supplier Variant ID',
          name: 'supplierVariantId',
          type: 'string',
          default: '',
        },
      ],
    },
  ],
};

/** Removes every alternate of the link (update only): the service takes an empty list. */
export const removeAlternatesField: INodeProperties = {
  displayName: 'Remove All Alternates',
  name: 'removeAlternates',
  type: 'boolean',
  default: false,
  description: 'Whether to remove every backup supplier variant of the link',
};

const FIELDS = ['storeVariantId', 'connectionId', 'supplierProductId', 'supplierVariantId'] as const;

/** The alternates as the service takes them, in the order given; an entry left wholly empty is dropped. */
export function alternatesOf(collection: { alternate?: IDataObject[] } | undefined): IDataObject[] {
  return (collection?.alternate ?? [])
    .map((a) => Object.fromEntries(FIELDS.map((f) => [f, String(a[f] ?? '').trim()])) as IDataObject)
    .filter((a) => FIELDS.some((f) => a[f] !== ''));
}
