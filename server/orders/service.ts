import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { errors } from '../platform/errors';
import type { Actor } from '../identity/permissions';
import type { Queryable } from '../platform/db';
import type { ProductService } from '../stores/products';
import type { StoreService } from '../stores/stores';
import type { ContractModel, Destination, OrderPart, PartStatus, PaymentMethod, Shipment, StoreOrder, StoreOrderItem } from './types';
import * as sql from './sql/orders';
import { confirmOrder, movePartNow } from './sql/parts';

const STORE_PART = 'store';
const supplierPartKey = (connectionId: string) => `supplier:${connectionId}`;

export interface CreateOrderInput {
  items: Array<{ productId: string; variantId: string; quantity: number }>;
  destination: Destination;
  paymentMethod: PaymentMethod;
  contractModel?: ContractModel;
}

/** What an order takes of its store, inside the order's transaction: its variants as sold, and its next number. */
export interface OrderStores {
  products: Pick<ProductService, 'variantsInStore'>;
  stores: Pick<StoreService, 'nextOrderNumber'>;
}

/**
 * Store orders and their parts. The order's status and needs-attention flag follow its parts, written with them
 * (`partMove`, ./sql/parts.ts, the one write of a part's status, which the dispatch domain composes into its own
 * statement through `PartMoves`);
 * other domains react to confirmations and authorisations through the events recorded with them.
 */
export class OrderService {
  constructor(
    private readonly db: DataSource,
    private readonly store: OrderStores,
  ) {}

  /** The order of this store with this id (none of another store's). */
  byId(storeId: string, id: string): Promise<StoreOrder | null> {
    return sql.orderInStore(this.db, storeId, id);
  }

  /**
   * Splits the items into parts: the store's own, and one per supplier connection of the linked items. `made` runs in
   * the order's transaction (its idempotency key records the order: both commit or neither).
   */
  async create(storeId: string, input: CreateOrderInput, creator: Creator, made?: (tx: EntityManager, orderId: string) => Promise<void>): Promise<StoreOrder> {
    const id = await this.db.transaction(async (tx) => {
      const variantIds = input.items.map((i) => i.variantId);
      const variants = await this.store.products.variantsInStore(tx, storeId, variantIds);
      const byId = new Map(variants.map((v) => [v.id, v]));
      const problems = input.items.flatMap((item, i) => {
        const v = byId.get(item.variantId);
        return !v || v.productId !== item.productId
          ? [{ field: `body/items/${i}`, message: `variant ${item.variantId} of product ${item.productId} is not in this store` }]
          : [];
      });
      if (problems.length) throw errors.validationFailed(problems);
      const currencies = new Set(variants.map((v) => v.currency));
      if (currencies.size > 1) throw errors.badRequest('mixedCurrencies', 'All items of an order must be priced in one currency.');
      const links = await sql.liveLinksOfVariants(tx, storeId, variantIds);
      const linkOf = new Map(links.map((l) => [l.store_variant_id, l]));
      const orderId = crypto.randomUUID();
      const items: Array<StoreOrderItem & { linkCurrency: string | null }> = input.items.map((item, position) => {
        const v = byId.get(item.variantId)!;
        const link = linkOf.get(v.id);
        return {
          id: crypto.randomUUID(),
          orderId,
          position,
          productId: item.productId,
          variantId: v.id,
          sku: v.sku,
          title: v.title,
          productTitle: v.productTitle,
          quantity: item.quantity,
          unitPriceMinor: v.priceMinor,
          partKey: link ? supplierPartKey(link.connection_id) : STORE_PART,
          supplierVariantId: link?.supplier_variant_id ?? null,
          linkCostMinor: link ? Number(link.cost_minor) : null,
          // The cost recorded when the order is taken, and its currency: every reroute's ceiling starts from it.
          linkCurrency: link?.currency ?? null,
        };
      });
      const parts = [...new Set(items.map((i) => i.partKey))].map((partKey) => ({
        partKey,
        connectionId: partKey === STORE_PART ? null : partKey.slice('supplier:'.length),
        fulfilledByStore: partKey === STORE_PART,
      }));
      await sql.insertOrder(
        tx,
        {
          id: orderId,
          storeId,
          number: String(await this.store.stores.nextOrderNumber(tx, storeId)),
          paymentMethod: input.paymentMethod,
          paymentStatus: 'none',
          contractModel: input.contractModel ?? 'standard',
          currency: [...currencies][0] ?? 'USD',
          totalMinor: input.items.reduce((sum, i) => sum + byId.get(i.variantId)!.priceMinor * i.quantity, 0),
          destination: { ...input.destination, country: input.destination.country.toUpperCase() },
          ...creator,
        },
        items,
        parts,
      );
      await made?.(tx, orderId);
      return orderId;
    });
    return (await sql.orderInStore(this.db, storeId, id))!;
  }

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<StoreOrder> {
    const order = await sql.orderInStore(this.db, storeId, id);
    if (!order || (ownKeyId && order.createdByKeyId !== ownKeyId)) throw errors.notFound('The order');
    return order;
  }

  items(storeId: string, orderId: string, tx: Queryable = this.db): Promise<StoreOrderItem[]> {
    return sql.itemsOf(tx, storeId, orderId);
  }

  /** The parts of these orders of one store. */
  parts(storeId: string, orderIds: string[], tx: Queryable = this.db): Promise<OrderPart[]> {
    return orderIds.length ? sql.partsOf(tx, storeId, orderIds) : Promise.resolve([]);
  }

  part(storeId: string, orderId: string, partKey: string): Promise<OrderPart | null> {
    return sql.partOf(this.db, storeId, orderId, partKey);
  }

  /** A staff member confirms; the store's own part starts being prepared. Answers once its own transaction commits. */
  async confirm(order: StoreOrder, actor: Actor): Promise<StoreOrder> {
    if (order.status === 'cancelled') throw errors.invalidState('A cancelled order cannot be confirmed.');
    if (order.confirmedAt) return order;
    await this.db.transaction((tx) => this.confirmIn(tx, order.storeId, order.id, actor));
    return (await sql.orderInStore(this.db, order.storeId, order.id))!;
  }

  /** Confirms inside the caller's transaction (a staff member, or a payment that confirms: ./payments). */
  async confirmIn(tx: EntityManager, storeId: string, orderId: string, actor: Actor): Promise<void> {
    await confirmOrder(tx, storeId, orderId, STORE_PART, actor);
  }

  /** The store takes a supplier part over (it has no supplier order left): it ships the part itself from now on. */
  async handPartToStore(storeId: string, orderId: string, partKey: string): Promise<void> {
    await movePartNow(this.db, storeId, orderId, partKey, { kind: 'handToStore' });
  }

  /** The store ships or delivers a part it fulfils itself (its own items, or a part taken over). */
  async shipOwnPart(order: StoreOrder, partKey: string, to: 'shipped' | 'delivered', shipment?: { carrier: string; trackingNumber: string }): Promise<void> {
    const part = await this.part(order.storeId, order.id, partKey);
    if (!part) throw errors.notFound('The order part');
    if (!part.fulfilledByStore) throw errors.invalidState('This part is fulfilled by its supplier; its status follows the supplier order.');
    if (!order.confirmedAt) throw errors.invalidState('Confirm the order first.');
    const allowed: Record<string, PartStatus[]> = { shipped: ['pending', 'processing'], delivered: ['shipped'] };
    if (!allowed[to].includes(part.status)) throw errors.invalidState(`A ${part.status} part cannot become ${to}.`);
    const now = new Date().toISOString();
    const next: Shipment =
      to === 'shipped'
        ? { carrier: shipment!.carrier, trackingNumber: shipment!.trackingNumber, shippedAt: now, deliveredAt: null }
        : { ...(part.shipment ?? { carrier: '', trackingNumber: '', shippedAt: null }), deliveredAt: now };
    if (!(await movePartNow(this.db, order.storeId, order.id, partKey, { kind: 'byStore', status: to, shipment: next, from: allowed[to] })))
      throw errors.invalidState('The part changed meanwhile; read the order again.');
  }
}
