import type { Transport } from '../transport.js';
import { Claims } from './claims.js';
import { Returns } from './returns.js';
import { Connections } from './connections.js';
import { EventSubscriptions } from './events.js';
import { Imports } from './imports.js';
import { Links } from './links.js';
import { SupplierOrders } from './orders.js';
import { Products } from './products.js';
import { Reports } from './reports.js';

/** Every supplier route, grouped as the workflow node groups them. */
export class Suppliers {
  readonly connections: Connections;
  readonly products: Products;
  readonly imports: Imports;
  readonly links: Links;
  readonly orders: SupplierOrders;
  readonly events: EventSubscriptions;
  readonly reports: Reports;
  readonly claims: Claims;
  readonly returns: Returns;

  constructor(t: Transport) {
    this.connections = new Connections(t);
    this.products = new Products(t);
    this.imports = new Imports(t);
    this.links = new Links(t);
    this.orders = new SupplierOrders(t);
    this.events = new EventSubscriptions(t);
    this.reports = new Reports(t);
    this.claims = new Claims(t);
    this.returns = new Returns(t);
  }
}

export { Claims, Returns, Connections, EventSubscriptions, Imports, Links, Products, Reports, SupplierOrders };
