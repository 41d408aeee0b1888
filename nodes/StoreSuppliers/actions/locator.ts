import type { INodeProperties } from 'n8n-workflow';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** How a record is named in the editor: picked from a list, by its ID, or (where the console shows it) by its address. */
export interface Locator {
  displayName: string;
  /** The parameter's name (kept as saved workflows have it). */
  name: string;
  /** The list search of methods/listSearch.ts that offers the records. */
  search: string;
  /** An example ID, shown as the ID mode's placeholder. */
  example: string;
  description?: string;
  /** The ID mode checks that the value is a UUID, naming the record in its message. */
  uuidOf?: string;
  /** The console page that shows one record (`orders` for `/console#orders/<id>`): offers a By URL mode. */
  consolePage?: string;
  /** The store's own records (so the list follows the chosen store); the store itself is not. */
  inStore?: boolean;
}

/** The one resource locator of the node: list search, ID (and the console's address where it has one). */
export function recordLocator(locator: Locator): INodeProperties {
  const page = locator.consolePage ?? '';
  const idCheck = { regex: `^${UUID}$`, errorMessage: `Not a valid ${locator.uuidOf ?? ''} ID` };
  const property: INodeProperties = {
    displayName: locator.displayName,
    name: locator.name,
    type: 'resourceLocator',
    default: { mode: 'list', value: '' },
    required: true,
    ...(locator.description ? { description: locator.description } : {}),
    ...(locator.inStore === false ? {} : { typeOptions: { loadOptionsDependsOn: ['store.value'] } }),
    modes: [
      { displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: locator.search, searchable: true } },
      // The console's address of the record, e.g. https://suppliers.example.com/console#orders/<id>: its ID is taken from it.
      {
        displayName: 'By URL',
        name: 'url',
        type: 'string',
        placeholder: `e.g. https://suppliers.example.com/console#${page}/${locator.example}`,
        validation: [
          { type: 'regex', properties: { regex: `.*#${page}/${UUID}.*`, errorMessage: `Not a console address of a ${locator.uuidOf ?? 'record'}` } },
        ],
        extractValue: { type: 'regex', regex: `#${page}/(${UUID})` },
      },
      {
        displayName: 'ID',
        name: 'id',
        type: 'string',
        placeholder: `e.g. ${locator.example}`,
        ...(locator.uuidOf ? { validation: [{ type: 'regex', properties: idCheck }] } : {}),
      },
    ],
  };
  // Only records the console shows on a page of their own can be named by its address.
  return locator.consolePage ? property : { ...property, modes: property.modes?.filter((mode) => mode.name !== 'url') };
}

export const storeRLC = recordLocator({
  displayName: 'Store',
  name: 'store',
  search: 'searchStores',
  example: '2870b58b-f6e2-430a-8d1e-ebdd8a7bb0ee',
  description: 'The store to act on; the API key must belong to its owner or to staff with the needed permission',
  uuidOf: 'store',
  inStore: false,
});

export const connectionRLC = recordLocator({
  displayName: 'Connection',
  name: 'connection',
  search: 'searchConnections',
  example: '6c6defb3-45c1-48e0-aeee-4836c0be9511',
  description: "The store's supplier connection",
  uuidOf: 'connection',
});
