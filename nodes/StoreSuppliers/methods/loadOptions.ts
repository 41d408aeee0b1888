import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { routing as listCatalogue } from '../actions/connection/getCatalogue.operation';
import { callRoute } from '../transport';
import { connectionName, connectionsOf, currentStoreId, withSuffix } from './records';

export const loadOptions = {
  /** Suppliers of the catalogue, for Connect and Start Sign-In. */
  async getSuppliers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
    const storeId = currentStoreId.call(this);
    if (!storeId) return [];
    const entries = (await callRoute.call(this, listCatalogue, { storeId })) as IDataObject[];
    return entries.map((e) => {
      const capabilities = (e.capabilities ?? {}) as IDataObject;
      const how = capabilities.authKind === 'signIn' ? 'sign-in' : 'API key';
      return { name: withSuffix(String(e.name), how), value: String(e.key), description: String(e.description ?? '') };
    });
  },

  /** The chosen store's connections, for filters. */
  async getConnections(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
    return (await connectionsOf.call(this)).map((c) => ({ name: connectionName(c), value: c.id }));
  },
};
