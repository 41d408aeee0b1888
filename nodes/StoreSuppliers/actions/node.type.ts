import type { OperationModule } from './helpers';
import * as claim from './claim/Claim.resource';
import * as connection from './connection/Connection.resource';
import * as importResource from './import/Import.resource';
import * as productLink from './productLink/ProductLink.resource';
import * as report from './report/Report.resource';
import * as returnResource from './return/Return.resource';
import * as storeOrder from './storeOrder/StoreOrder.resource';
import * as storeProduct from './storeProduct/StoreProduct.resource';
import * as supplierOrder from './supplierOrder/SupplierOrder.resource';
import * as supplierProduct from './supplierProduct/SupplierProduct.resource';

/** Every operation of the node, by resource and operation value: the router's dispatch table. */
export const resources = {
  claim: claim.operations,
  connection: connection.operations,
  import: importResource.operations,
  productLink: productLink.operations,
  report: report.operations,
  return: returnResource.operations,
  storeOrder: storeOrder.operations,
  storeProduct: storeProduct.operations,
  supplierOrder: supplierOrder.operations,
  supplierProduct: supplierProduct.operations,
} satisfies Record<string, Record<string, OperationModule>>;

export type StoreSuppliersResource = keyof typeof resources;

const isResource = (name: string): name is StoreSuppliersResource => Object.hasOwn(resources, name);

/** The operation the node's parameters name, when the map has it (a saved workflow may name one it no longer has). */
export function operationFor(resource: string, operation: string): OperationModule | undefined {
  if (!isResource(resource)) return undefined;
  const operations: Record<string, OperationModule> = resources[resource];
  return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}
