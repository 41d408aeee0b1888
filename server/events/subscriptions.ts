import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { checkTarget } from '../platform/address-guard';
import type { Secrets } from '../platform/crypto';
import { ApiError, errors } from '../platform/errors';
import { Cursors, keysetList, Page } from '../platform/pagination';
import { type RateLimit, takeRate } from '../platform/rate-limit';
import type { OwnerAccess } from './delivery';
import { BASE_PERMISSION, type Renderers } from './render';
import { newSecret } from './signing';
import { deliveryList, deliveryOfSubscription, redeliver } from './sql/deliveries';
import { insertTestEvent } from './sql/outbox';
import { deliveryOf, subscriptionOf } from './sql/rows';
import * as sql from './sql/subscriptions';
import type { Delivery, Subscription } from './types';

interface SubscriptionInput {
  url: string;
  eventTypes: string[];
  description?: string | null;
}

/** Who asks: the owner they would become (their account, and their key with its record scope) and their store permissions now. */
export interface Changer extends sql.Owner {
  permissions: ReadonlySet<string>;
}

/** What one store may have and do: subscriptions, and test or redeliver calls (one budget). */
interface SubscriptionLimits {
  perStore: number;
  sends: RateLimit;
}

/**
 * A store's event subscriptions and their deliveries; every read and change is within the caller's record scope. A
 * subscription acts for its owner: whoever changes its address or its secret must be able to read all its data, and
 * becomes its owner.
 */
export class SubscriptionService {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    private readonly cursors: Cursors,
    /** Loopback and private targets allowed (the operator's explicit choice). */
    private readonly allowPrivateTargets: boolean,
    private readonly renderers: Renderers,
    private readonly ownerAccess: OwnerAccess,
    readonly limits: SubscriptionLimits,
  ) {}

  /** Answers the new subscription and its signing secret, shown only here and when it is rotated. Its creator owns it. */
  async create(
    storeId: string,
    owner: sql.Owner,
    input: SubscriptionInput,
    made?: (tx: Queryable, id: string) => Promise<void>,
  ): Promise<{ subscription: Subscription; secret: string }> {
    await checkTarget(input.url, this.allowPrivateTargets);
    const secret = newSecret();
    const subscription = await sql.insertSubscription(
      this.db,
      {
        id: crypto.randomUUID(),
        storeId,
        url: input.url,
        description: input.description ?? null,
        eventTypes: unique(input.eventTypes),
        secretSealed: this.secrets.encrypt(secret),
        ownerAccountId: owner.accountId,
        ownerKeyId: owner.keyId,
      },
      this.limits.perStore,
      made,
    );
    if (!subscription) throw limitReached(this.limits.perStore);
    return { subscription, secret };
  }

  /** A subscription `create` made whose answer was lost (its idempotency key's recovery): with its secret as it is now. */
  async made(storeId: string, id: string): Promise<{ subscription: Subscription; secret: string }> {
    const subscription = await sql.subscriptionInStore(this.db, storeId, id, null);
    if (!subscription) throw errors.notFound('The event subscription');
    return { subscription, secret: this.secrets.decrypt(subscription.secretSealed) };
  }

  list(storeId: string, ownKeyId: string | null, q: { cursor?: string; pageSize: number }): Promise<Page<Subscription>> {
    return keysetList(this.db, this.cursors, q, sql.subscriptionList(storeId, ownKeyId), subscriptionOf);
  }

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<Subscription> {
    const s = await sql.subscriptionInStore(this.db, storeId, id, ownKeyId);
    if (!s) throw errors.notFound('The event subscription');
    return s;
  }

  /**
   * A new address makes the changer its owner (refused unless they may read all its data). The types, description and
   * switch may be changed by any member who may manage it: deliveries still go to the owner's address, rendered for
   * the owner. Switching on needs an owner who still has the store.
   */
  async update(
    storeId: string,
    id: string,
    ownKeyId: string | null,
    changer: Changer,
    changes: Partial<SubscriptionInput> & { enabled?: boolean },
  ): Promise<Subscription> {
    const s = await this.get(storeId, id, ownKeyId);
    const eventTypes = changes.eventTypes ? unique(changes.eventTypes) : undefined;
    const owner = changes.url !== undefined ? this.takeOver(s, changer, eventTypes ?? s.eventTypes) : null;
    if (changes.url !== undefined) await checkTarget(changes.url, this.allowPrivateTargets);
    if (changes.enabled) await this.ownerStillActs(storeId, owner ?? { accountId: s.ownerAccountId, keyId: s.ownerKeyId });
    return sql.updateSubscription(this.db, storeId, id, { ...changes, ...(eventTypes ? { eventTypes } : {}) }, owner);
  }

  async delete(storeId: string, id: string, ownKeyId: string | null): Promise<void> {
    await this.get(storeId, id, ownKeyId);
    await sql.deleteSubscription(this.db, storeId, id);
  }

  /** A new secret, and the changer its owner; the old one keeps signing beside it for `keepOldSeconds`, so receivers can move without a gap. */
  async rotate(
    storeId: string,
    id: string,
    ownKeyId: string | null,
    changer: Changer,
    keepOldSeconds: number,
  ): Promise<{ subscription: Subscription; secret: string }> {
    const s = await this.get(storeId, id, ownKeyId);
    const owner = this.takeOver(s, changer, s.eventTypes);
    const secret = newSecret();
    const until = keepOldSeconds > 0 ? new Date(Date.now() + keepOldSeconds * 1000) : null;
    return { subscription: await sql.rotateSecret(this.db, storeId, id, this.secrets.encrypt(secret), until, owner), secret };
  }

  /** A `subscription.test` event for this subscription alone, delivered like any other; answers its delivery. */
  async test(storeId: string, id: string, ownKeyId: string | null): Promise<Delivery> {
    const s = await this.get(storeId, id, ownKeyId);
    await takeRate(this.db, this.limits.sends, storeId);
    const deliveryId = await insertTestEvent(this.db, s, {
      subscriptionId: s.id,
      message: 'A test event from Store Suppliers: the subscription reaches this address.',
    });
    return (await deliveryOfSubscription(this.db, storeId, s.id, deliveryId))!;
  }

  async deliveries(storeId: string, id: string, ownKeyId: string | null, q: { cursor?: string; pageSize: number; status?: string }): Promise<Page<Delivery>> {
    await this.get(storeId, id, ownKeyId);
    return keysetList(this.db, this.cursors, q, deliveryList(storeId, id, q.status ?? null), deliveryOf);
  }

  async delivery(storeId: string, id: string, deliveryId: string, ownKeyId: string | null): Promise<Delivery> {
    await this.get(storeId, id, ownKeyId);
    const d = await deliveryOfSubscription(this.db, storeId, id, deliveryId);
    if (!d) throw errors.notFound('The delivery');
    return d;
  }

  /** Sends the delivery's event again (same webhook-id), due now with a fresh retry period. */
  async redeliver(storeId: string, id: string, deliveryId: string, ownKeyId: string | null): Promise<Delivery> {
    await this.delivery(storeId, id, deliveryId, ownKeyId);
    await takeRate(this.db, this.limits.sends, storeId);
    await redeliver(this.db, storeId, deliveryId);
    return (await deliveryOfSubscription(this.db, storeId, id, deliveryId))!;
  }

  /**
   * The changer as the new owner, if they may read everything the data of these types carries; its owner moving it
   * takes nothing from anyone (it stays rendered for them), so only someone else needs all of it.
   */
  private takeOver(s: Subscription, changer: Changer, eventTypes: string[]): sql.Owner {
    const missing = this.renderers.needs(eventTypes).filter((p) => !changer.permissions.has(p));
    if (missing.length && changer.accountId !== s.ownerAccountId) {
      throw new ApiError(
        403,
        'subscriptionOwnerPermissionsMissing',
        `Changing where this subscription sends, or its secret, makes you its owner and needs every permission its data needs; missing: ${missing.join(', ')}.`,
        missing.map((permission) => ({ message: 'Missing store permission', permission })),
      );
    }
    return { accountId: changer.accountId, keyId: changer.keyId };
  }

  private async ownerStillActs(storeId: string, owner: sql.Owner): Promise<void> {
    const access = await this.ownerAccess(storeId, owner.accountId, owner.keyId);
    if (access && !access.keyRevoked && access.permissions.has(BASE_PERMISSION)) return;
    throw errors.conflict(
      'subscriptionOwnerAccessEnded',
      "The subscription's owner can no longer act in this store; change its url or rotate its secret to take it over, then switch it on.",
    );
  }
}

const limitReached = (limit: number) =>
  new ApiError(409, 'subscriptionLimitReached', `A store has at most ${limit} event subscriptions; delete one first.`, [
    { message: 'Subscription limit reached', limit },
  ]);

const unique = (types: string[]) => [...new Set(types)];
