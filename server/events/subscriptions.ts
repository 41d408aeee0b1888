import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { checkTarget } from '../platform/address-guard';
import type { Secrets } from '../platform/crypto';
import { errors } from '../platform/errors';
import { Cursors, keysetList, Page } from '../platform/pagination';
import type { Creator } from '../identity/permissions';
import { newSecret } from './signing';
import * as sql from './sql';
import type { Delivery, Subscription } from './types';

export interface SubscriptionInput {
  url: string;
  eventTypes: string[];
  description?: string | null;
}

/** A store's event subscriptions and their deliveries; every read and change is within the caller's record scope. */
export class SubscriptionService {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    private readonly cursors: Cursors,
    /** Loopback and private targets allowed (the local default). */
    private readonly allowPrivateTargets: boolean,
  ) {}

  /** Answers the new subscription and its signing secret, shown only here and when it is rotated. */
  async create(storeId: string, creator: Creator, input: SubscriptionInput): Promise<{ subscription: Subscription; secret: string }> {
    await checkTarget(input.url, this.allowPrivateTargets);
    const secret = newSecret();
    const subscription = await sql.insertSubscription(this.db, {
      id: crypto.randomUUID(), storeId, url: input.url, description: input.description ?? null, eventTypes: unique(input.eventTypes), secretSealed: this.secrets.encrypt(secret), ...creator,
    });
    return { subscription, secret };
  }

  list(storeId: string, ownKeyId: string | null, q: { cursor?: string; pageSize: number }): Promise<Page<Subscription>> {
    return keysetList(this.db, this.cursors, q, sql.subscriptionList(storeId, ownKeyId), sql.subscriptionOf);
  }

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<Subscription> {
    const s = await sql.subscriptionInStore(this.db, storeId, id, ownKeyId);
    if (!s) throw errors.notFound('The event subscription');
    return s;
  }

  async update(storeId: string, id: string, ownKeyId: string | null, changes: Partial<SubscriptionInput> & { enabled?: boolean }): Promise<Subscription> {
    await this.get(storeId, id, ownKeyId);
    if (changes.url !== undefined) await checkTarget(changes.url, this.allowPrivateTargets);
    return sql.updateSubscription(this.db, id, { ...changes, ...(changes.eventTypes ? { eventTypes: unique(changes.eventTypes) } : {}) });
  }

  async delete(storeId: string, id: string, ownKeyId: string | null): Promise<void> {
    await this.get(storeId, id, ownKeyId);
    await sql.deleteSubscription(this.db, id);
  }

  /** A new secret; the old one keeps signing beside it for `keepOldSeconds`, so receivers can move without a gap. */
  async rotate(storeId: string, id: string, ownKeyId: string | null, keepOldSeconds: number): Promise<{ subscription: Subscription; secret: string }> {
    await this.get(storeId, id, ownKeyId);
    const secret = newSecret();
    const until = keepOldSeconds > 0 ? new Date(Date.now() + keepOldSeconds * 1000) : null;
    return { subscription: await sql.rotateSecret(this.db, id, this.secrets.encrypt(secret), until), secret };
  }

  /** A `subscription.test` event for this subscription alone, delivered like any other; answers its delivery. */
  async test(storeId: string, id: string, ownKeyId: string | null): Promise<Delivery> {
    const s = await this.get(storeId, id, ownKeyId);
    const deliveryId = await sql.insertTestEvent(this.db, s, { subscriptionId: s.id, message: 'A test event from Store Suppliers: the subscription reaches this address.' });
    return (await sql.deliveryOfSubscription(this.db, s.id, deliveryId))!;
  }

  async deliveries(storeId: string, id: string, ownKeyId: string | null, q: { cursor?: string; pageSize: number; status?: string }): Promise<Page<Delivery>> {
    await this.get(storeId, id, ownKeyId);
    return keysetList(this.db, this.cursors, q, sql.deliveryList(id, q.status ?? null), sql.deliveryOf);
  }

  async delivery(storeId: string, id: string, deliveryId: string, ownKeyId: string | null): Promise<Delivery> {
    await this.get(storeId, id, ownKeyId);
    const d = await sql.deliveryOfSubscription(this.db, id, deliveryId);
    if (!d) throw errors.notFound('The delivery');
    return d;
  }

  /** Sends the delivery's event again (same webhook-id), due now with a fresh retry period. */
  async redeliver(storeId: string, id: string, deliveryId: string, ownKeyId: string | null): Promise<Delivery> {
    await this.delivery(storeId, id, deliveryId, ownKeyId);
    await sql.redeliver(this.db, deliveryId);
    return (await sql.deliveryOfSubscription(this.db, id, deliveryId))!;
  }
}

const unique = (types: string[]) => [...new Set(types)];
