import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { errors } from '../platform/errors';
import type { Cursors } from '../platform/pagination';
import { StoreVariant } from '../stores/entities';
import { ContractModel, Destination, FulfilmentGroup, PartStatus, PaymentMethod, Shipment, StoreOrder, StoreOrderItem } from './entities';
import type { PublishStoreOrderEvent, StoreOrderEvent } from './events';
import * as sql from './sql';

export const STORE_GROUP = 'store';
export const supplierGroupKey = (connectionId: string) => `supplier:${connectionId}`;

export interface CreateOrderInput {
  items: Array<{ productId: string; variantId: string; quantity: number }>;
  destination: Destination;
  paymentMethod: PaymentMethod;
  contractModel?: ContractModel;
}

/**
 * Store orders and their parts. The order's status and needs-attention flag follow its parts by database trigger
 * (migration StoreOrderFromParts); other domains learn of confirmations and authorisations through published events.
 */
export class OrderService {
  constructor(
    private readonly db: DataSource,
    private readonly cursors: Cursors,
    private readonly publish: PublishStoreOrderEvent,
  ) {}

  byId(id: string): Promise<StoreOrder | null> {
    return this.db.getRepository(StoreOrder).findOneBy({ id });
  }

  /** Splits the items into parts: the store's own, and one per supplier connection of the linked items. */
  async create(storeId: string, input: CreateOrderInput, creator: Creator): Promise<StoreOrder> {
    return this.db.transaction(async (tx) => {
      const variantIds = input.items.map((i) => i.variantId);
      const variants = await tx.getRepository(StoreVariant).findBy({ id: In(variantIds), storeId });
      const byId = new Map(variants.map((v) => [v.id, v]));
      const problems = input.items.flatMap((item, i) => {
        const v = byId.get(item.variantId);
        return !v || v.productId !== item.productId ? [{ field: `body/items/${i}`, message: `variant ${item.variantId} of product ${item.productId} is not in this store` }] : [];
      });
      if (problems.length) throw errors.validationFailed(problems);
      const currencies = new Set(variants.map((v) => v.currency));
      if (currencies.size > 1) throw errors.badRequest('mixedCurrencies', 'All items of an order must be priced in one currency.');
      const links = await sql.liveLinksOfVariants(tx, variantIds);
      const linkOf = new Map(links.map((l) => [l.store_variant_id, l]));
      const n = await sql.nextOrderNumber(tx, storeId);
      const order = tx.getRepository(StoreOrder).create({
        id: crypto.randomUUID(),
        storeId,
        number: String(n),
        status: 'pending',
        paymentMethod: input.paymentMethod,
        paymentStatus: 'none',
        contractModel: input.contractModel ?? 'standard',
        currency: [...currencies][0] ?? 'USD',
        totalMinor: input.items.reduce((sum, i) => sum + byId.get(i.variantId)!.priceMinor * i.quantity, 0),
        destination: { ...input.destination, country: input.destination.country.toUpperCase() },
        needsAttention: false,
        confirmedAt: null,
        markedPaidAt: null,
        ...creator,
      });
      await tx.getRepository(StoreOrder).insert(order);
      const items = input.items.map((item, position) => {
        const v = byId.get(item.variantId)!;
        const link = linkOf.get(v.id);
        return {
          id: crypto.randomUUID(),
          orderId: order.id,
          position,
          productId: item.productId,
          variantId: v.id,
          sku: v.sku,
          title: v.title,
          quantity: item.quantity,
          unitPriceMinor: v.priceMinor,
          groupKey: link ? supplierGroupKey(link.connection_id) : STORE_GROUP,
          supplierVariantId: link?.supplier_variant_id ?? null,
          linkCostMinor: link ? Number(link.cost_minor) : null,
        };
      });
      await tx.getRepository(StoreOrderItem).insert(items);
      const groups = [...new Set(items.map((i) => i.groupKey))].map((groupKey) => ({
        orderId: order.id,
        groupKey,
        connectionId: groupKey === STORE_GROUP ? null : groupKey.slice('supplier:'.length),
        status: 'pending' as const,
        shipment: null,
        fulfilledByStore: groupKey === STORE_GROUP,
      }));
      await tx.getRepository(FulfilmentGroup).insert(groups);
      return tx.getRepository(StoreOrder).findOneByOrFail({ id: order.id });
    });
  }

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<StoreOrder> {
    const order = await this.db.getRepository(StoreOrder).findOneBy({ id, storeId });
    if (!order || (ownKeyId && order.createdByKeyId !== ownKeyId)) throw errors.notFound('The order');
    return order;
  }

  items(orderId: string, tx: EntityManager = this.db.manager): Promise<StoreOrderItem[]> {
    return tx.getRepository(StoreOrderItem).find({ where: { orderId }, order: { position: 'ASC' } });
  }

  groups(orderIds: string[], tx: EntityManager = this.db.manager): Promise<FulfilmentGroup[]> {
    return orderIds.length ? tx.getRepository(FulfilmentGroup).find({ where: { orderId: In(orderIds) }, order: { groupKey: 'ASC' } }) : Promise.resolve([]);
  }

  group(orderId: string, groupKey: string): Promise<FulfilmentGroup | null> {
    return this.db.getRepository(FulfilmentGroup).findOneBy({ orderId, groupKey });
  }

  /** A staff member confirms; the store's own part starts being prepared. Answers once its own transaction commits. */
  async confirm(order: StoreOrder, actor: StoreOrderEvent['actor']): Promise<StoreOrder> {
    if (order.status === 'cancelled') throw errors.invalidState('A cancelled order cannot be confirmed.');
    if (order.confirmedAt) return order;
    await this.db.transaction((tx) => this.confirmIn(tx, order.id, actor));
    return this.db.getRepository(StoreOrder).findOneByOrFail({ id: order.id });
  }

  /** Confirms inside the caller's transaction (a staff member, or a payment that confirms: ./payments). */
  async confirmIn(tx: EntityManager, orderId: string, actor: StoreOrderEvent['actor']): Promise<void> {
    if (!(await sql.confirmOrder(tx, orderId))) return;
    await sql.startStorePart(tx, orderId, STORE_GROUP);
    await this.publish(tx, { orderId, kind: 'confirmed', actor });
  }

  /**
   * Promise-to-sell: charges the authorised shopper payment once the supplier accepted. Answers false
   * when the payment cannot be captured (no longer authorised).
   */
  async captureShopperPayment(orderId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const status = await sql.lockPaymentStatus(tx, orderId);
      if (status === 'paid') return true;
      const ok = status === 'authorised';
      await sql.insertPaymentEvent(tx, { orderId, kind: ok ? 'captured' : 'captureFailed', source: 'service' });
      if (ok) await sql.setPaymentStatus(tx, orderId, 'paid');
      return ok;
    });
  }

  /** The part's status and shipment; the order follows by trigger. */
  async setPart(tx: EntityManager, orderId: string, groupKey: string, change: { status?: PartStatus; shipment?: Shipment | null; fulfilledByStore?: boolean; needsAttention?: boolean }): Promise<void> {
    const fields: Partial<FulfilmentGroup> = {};
    if (change.status) fields.status = change.status;
    if (change.shipment !== undefined) fields.shipment = change.shipment;
    if (change.fulfilledByStore !== undefined) fields.fulfilledByStore = change.fulfilledByStore;
    if (change.needsAttention !== undefined) fields.needsAttention = change.needsAttention;
    await tx.getRepository(FulfilmentGroup).update({ orderId, groupKey }, { ...fields, updatedAt: new Date() });
  }

  /** The store takes a supplier part over: it ships the part itself from now on. */
  async handPartToStore(tx: EntityManager, orderId: string, groupKey: string): Promise<void> {
    const confirmed = await sql.confirmedAt(tx, orderId);
    await this.setPart(tx, orderId, groupKey, { fulfilledByStore: true, status: confirmed ? 'processing' : 'pending', shipment: null, needsAttention: false });
  }

  /** The store ships or delivers a part it fulfils itself (its own items, or a part taken over). */
  async shipOwnPart(order: StoreOrder, groupKey: string, to: 'shipped' | 'delivered', shipment?: { carrier: string; trackingNumber: string }): Promise<void> {
    const group = await this.group(order.id, groupKey);
    if (!group) throw errors.notFound('The order part');
    if (!group.fulfilledByStore) throw errors.invalidState('This part is fulfilled by its supplier; its status follows the supplier order.');
    if (!order.confirmedAt) throw errors.invalidState('Confirm the order first.');
    const allowed: Record<string, PartStatus[]> = { shipped: ['pending', 'processing'], delivered: ['shipped'] };
    if (!allowed[to].includes(group.status)) throw errors.invalidState(`A ${group.status} part cannot become ${to}.`);
    const now = new Date().toISOString();
    const next: Shipment =
      to === 'shipped'
        ? { carrier: shipment!.carrier, trackingNumber: shipment!.trackingNumber, shippedAt: now, deliveredAt: null }
        : { ...(group.shipment ?? { carrier: '', trackingNumber: '', shippedAt: null }), deliveredAt: now };
    await this.db.transaction((tx) => this.setPart(tx, order.id, groupKey, { status: to, shipment: next }));
  }
}
