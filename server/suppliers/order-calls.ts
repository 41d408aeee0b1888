import type { ShippingQuote, SupplierAdapter, SupplierCallContext, SupplierOrderInput, SupplierOrderSnapshot } from './adapter';

/** A supplier's order calls written as plain functions of its HTTP client (each supplier's `orders` module). */
export interface OrderCalls<Client> {
  findOrderByNumber(client: Client, ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null>;
  quoteShipping(client: Client, ctx: SupplierCallContext, input: Pick<SupplierOrderInput, 'items' | 'destination'>): Promise<ShippingQuote>;
  createOrder(client: Client, ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot>;
}

export type LentOrderCalls = Pick<SupplierAdapter, 'findOrderByNumber' | 'quoteShipping' | 'createOrder'>;

/** The adapter lends its client once, instead of each adapter forwarding the same three calls by hand. */
export function lendClient<Client>(client: Client, calls: OrderCalls<Client>): LentOrderCalls {
  return {
    findOrderByNumber: (ctx, orderNumber) => calls.findOrderByNumber(client, ctx, orderNumber),
    quoteShipping: (ctx, input) => calls.quoteShipping(client, ctx, input),
    createOrder: (ctx, input) => calls.createOrder(client, ctx, input),
  };
}
