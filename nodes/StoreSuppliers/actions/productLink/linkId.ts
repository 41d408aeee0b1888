import type { IExecuteFunctions } from 'n8n-workflow';

import { idParameter, storeId } from '../helpers';
import { recordLocator } from '../locator';

export const linkIdField = recordLocator({
  displayName: 'Product Link',
  name: 'linkId',
  search: 'searchProductLinks',
  example: '5e8d2a1c-3f4b-4a6e-9c7d-1b0a2f3e4d5c',
  description: 'The product link (a store product tied to a supplier product)',
});

/** The path parameters of one link's routes (`/api/store-suppliers/{storeId}/links/{linkId}/...`). */
export function linkParams(this: IExecuteFunctions, itemIndex: number): { storeId: string; linkId: string } {
  return { storeId: storeId.call(this, itemIndex), linkId: idParameter.call(this, 'linkId', itemIndex, 'The link ID') };
}
