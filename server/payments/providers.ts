import type { DataSource } from 'typeorm';
import type { Secrets } from '../platform/crypto';
import { errors } from '../platform/errors';
import { signingKeyOf } from './signature';
import * as sql from './sql';

/** The payment providers whose notifications the service understands (Standard Webhooks signatures). */
export const PAYMENT_PROVIDERS = ['sandbox'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export interface PaymentProviderView {
  provider: PaymentProvider | null;
  /** Where the provider sends the store's payment events; enter it at the provider. */
  notificationUrl: string;
  configured: boolean;
  /** The provider's hosted checkout for this store, if the store gave it (the console's "Pay as the shopper"). */
  checkoutUrl: string | null;
  updatedAt: string | null;
}

export const notificationPath = (storeId: string) => `/api/payment-notifications/${storeId}`;

/** Each store's payment provider and the secret its notifications are signed with (entered by the store, never answered back). */
export class PaymentProviders {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
  ) {}

  async view(storeId: string, baseUrl: string): Promise<PaymentProviderView> {
    const row = await sql.providerOf(this.db, storeId);
    return { provider: (row?.provider as PaymentProvider) ?? null, notificationUrl: baseUrl + notificationPath(storeId), configured: !!row, checkoutUrl: row?.checkout_url ?? null, updatedAt: row ? row.updated_at.toISOString() : null };
  }

  /** Sets or replaces the provider and its signing secret; events signed with the old secret are refused from now on. */
  async configure(storeId: string, provider: PaymentProvider, signingSecret: string, checkoutUrl: string | null = null): Promise<void> {
    if (!signingKeyOf(signingSecret)) throw errors.validationFailed([{ field: 'body/signingSecret', message: 'must be the provider\'s signing secret: whsec_ followed by 24 to 64 bytes in base64' }]);
    await sql.saveProvider(this.db, storeId, provider, this.secrets.encrypt(signingSecret), checkoutUrl);
  }

  async remove(storeId: string): Promise<void> {
    if (!(await sql.removeProvider(this.db, storeId))) throw errors.notFound('The payment provider');
  }

  /** The store's signing secret, or null when it has none. */
  async signingSecretOf(storeId: string): Promise<string | null> {
    const row = await sql.providerOf(this.db, storeId);
    return row ? this.secrets.decrypt(row.signing_secret_sealed) : null;
  }
}
