import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as claim from './actions/claim/Claim.resource';
import * as returnResource from './actions/return/Return.resource';
import * as connection from './actions/connection/Connection.resource';
import * as importResource from './actions/import/Import.resource';
import * as productLink from './actions/productLink/ProductLink.resource';
import * as report from './actions/report/Report.resource';
import { router } from './actions/router';
import * as supplierOrder from './actions/supplierOrder/SupplierOrder.resource';
import * as storeOrder from './actions/storeOrder/StoreOrder.resource';
import * as storeProduct from './actions/storeProduct/StoreProduct.resource';
import * as supplierProduct from './actions/supplierProduct/SupplierProduct.resource';
import { listSearch, loadOptions, recordSearch } from './methods';

export class StoreSuppliers implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Store Suppliers',
    name: 'storeSuppliers',
    icon: { light: 'file:storeSuppliers.svg', dark: 'file:storeSuppliers.dark.svg' },
    group: ['transform'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Connect dropshipping suppliers, import their products, create and confirm store orders, and send, retry and pay supplier orders',
    defaults: { name: 'Store Suppliers' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'storeSuppliersApi', required: true }],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'Claim', value: 'claim' },
          { name: 'Connection', value: 'connection' },
          { name: 'Import', value: 'import' },
          { name: 'Product Link', value: 'productLink' },
          { name: 'Report', value: 'report' },
          { name: 'Return', value: 'return' },
          { name: 'Store Order', value: 'storeOrder' },
          { name: 'Store Product', value: 'storeProduct' },
          { name: 'Supplier Order', value: 'supplierOrder' },
          { name: 'Supplier Product', value: 'supplierProduct' },
        ],
        default: 'supplierOrder',
      },
      ...connection.description,
      ...supplierProduct.description,
      ...importResource.description,
      ...productLink.description,
      ...supplierOrder.description,
      ...storeOrder.description,
      ...storeProduct.description,
      ...report.description,
      ...claim.description,
      ...returnResource.description,
    ],
  };

  methods = { listSearch: { ...listSearch, ...recordSearch }, loadOptions };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return await router.call(this);
  }
}
