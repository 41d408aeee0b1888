import * as connection from './connection/Connection.resource';
import * as importResource from './import/Import.resource';
import * as productLink from './productLink/ProductLink.resource';
import * as storeOrder from './storeOrder/StoreOrder.resource';
import * as storeProduct from './storeProduct/StoreProduct.resource';
import * as supplierOrder from './supplierOrder/SupplierOrder.resource';
import * as supplierProduct from './supplierProduct/SupplierProduct.resource';

/** Every operation of the node, by resource and operation value: the router's dispatch table. */
export const resources = {
	connection: connection.operations,
	import: importResource.operations,
	productLink: productLink.operations,
	storeOrder: storeOrder.operations,
	storeProduct: storeProduct.operations,
	supplierOrder: supplierOrder.operations,
	supplierProduct: supplierProduct.operations,
};

export type StoreSuppliersResource = keyof typeof resources;

export type StoreSuppliersType = {
	[R in StoreSuppliersResource]: { resource: R; operation: keyof (typeof resources)[R] };
}[StoreSuppliersResource];
