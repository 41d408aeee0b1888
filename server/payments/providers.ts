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
  /** The store gave its API key at the provider (never answered): needed to capture promise-to-sell payments. */
  hasApiKey: boolean;
  updatedAt: string | null;
}

interface ProviderSettings {
  provider: PaymentProvider;
  signingSecret: string;
  checkoutUrl?: string | null;
  /** Omitted: the stored key is kept; null: removed. */
  apiKey?: string | null;
}

export const notificationPath = (storeId: string) => `/api/payment-notifications/${storeId}`;

/**
 * Each store's payment provider: the secret its notifications are signed with, and the store's API key there (which
 * the service uses to capture), both entered by the store, sealed, never answered back nor logged.
 */
export class PaymentProviders {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
  ) {}

  async view(storeId: string, baseUrl: string): Promise<PaymentProviderView> {
    const row = await sql.providerOf(this.db, storeId);
    return {
      provider: (row?.provider as PaymentProvider) ?? null,
      notificationUrl: baseUrl + notificationPath(storeId),
      configured: !!row,
      checkoutUrl: row?.checkout_url ?? null,
      hasApiKey: !!row?.api_key_sealed,
      updatedAt: row ? row.updated_at.toISOString() : null,
    };
  }

  /** Sets or replaces the provider and its signing secret; events signed with the old one are refused from now on. */
  async configure(storeId: string, settings: ProviderSettings): Promise<void> {
    if (!signingKeyOf(settings.signingSecret))
      throw errors.validationFailed([
        { field: 'body/signingSecret', message: "must be the provider's signing secret: whsec_ followed by 24 to 64 bytes in base64" },
      ]);
    const apiKey = settings.apiKey === undefined || settings.apiKey === null ? settings.apiKey : this.secrets.encrypt(settings.apiKey);
    await sql.saveProvider(this.db, storeId, settings.provider, this.secrets.encrypt(settings.signingSecret), apiKey, settings.checkoutUrl ?? null);
  }

  async remove(storeId: string): Promise<void> {
    if (!(await sql.removeProvider(this.db, storeId))) throw errors.notFound('The payment provider');
  }

  /** The store's provider and its API key there, or null when it gave none. */
  async apiKeyOf(storeId: string): Promise<{ provider: PaymentProvider; apiKey: string } | null> {
    const row = await sql.providerOf(this.db, storeId);
    return row?.api_key_sealed ? { provider: row.provider as PaymentProvider, apiKey: this.secrets.decrypt(row.api_key_sealed) } : null;
  }

  /** The store's signing secret, or null when it has none. */
  async signingSecretOf(storeId: string): Promise<string | null> {
    const row = await sql.providerOf(this.db, storeId);
    return row ? this.secrets.decrypt(row.signing_secret_sealed) : null;
  }
}
