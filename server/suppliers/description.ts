/** What an adapter states about itself, and the catalogue entry (GET /:storeId/catalogue) the service shows of it. */

/** A JSON Schema document, as the service's validator takes it. */
export type JsonSchema = Record<string, unknown>;

export type AuthKind = 'apiKey' | 'signIn';
export type SyncField = 'cost' | 'price' | 'stock' | 'title' | 'availability';

/** What the catalogue (GET /:storeId/catalogue) shows each supplier can do. */
export interface SupplierCapabilities {
  /** Follows from the adapter: `signIn` when it implements the sign-in methods (see `supportsSignIn`). */
  authKind: AuthKind;
  /** The supplier has a test environment of its own, so `test` connections can really place orders. */
  hasSandbox: boolean;
  balance: boolean;
  /** Shown to the merchant; the adapter's `cancelOrder` answers `refused` for what the supplier will not cancel. */
  cancel: boolean;
  /** Follows from the adapter: true when it implements `registerNotificationAddress` (see `sendsNotifications`). */
  notifications: boolean;
  /**
   * How supplier orders are paid: from a balance held at the supplier (`payOrder`), only when the order is created (the
   * connection's automatic payment; `payOrder` refuses), or not through the API at all. Shown only.
   */
  payment: 'balance' | 'atCreate' | 'external';
  syncFields: SyncField[];
  /**
   * How claims reach the supplier: `api` follows from the adapter (it implements the claim methods: the service sends
   * them); `person`: a person sends them where `where` says, within `deadlineDays` (`counted` from the shipping, or from the claim: AliExpress's 15 days for the seller to answer).
   */
  claims: { via: 'api' | 'person'; deadlineDays: number | null; counted: 'fromShipping' | 'fromClaim'; where: string };
}

/** What an adapter states about itself; sign-in and notifications it states by implementing their methods. */
export interface SupplierDescription {
  key: string;
  name: string;
  description: string;
  capabilities: Omit<SupplierCapabilities, 'authKind' | 'notifications' | 'claims'> & { claims?: Omit<SupplierCapabilities['claims'], 'via'> };
  /** JSON Schema of the supplier's own settings (validated by PUT /:storeId/:id/settings). */
  settingsSchema: JsonSchema;
  defaultSettings: Record<string, unknown>;
  /** JSON Schema of the credentials taken by connect and replace (API-key suppliers). */
  credentialsSchema: JsonSchema;
}

export interface CatalogueEntry extends Omit<SupplierDescription, 'capabilities'> {
  capabilities: SupplierCapabilities;
}

/** The catalogue entry of an adapter: its description, with the capabilities its methods show. */
export function catalogueEntry(
  description: SupplierDescription,
  adapter: { signInUrl?: unknown; exchangeSignInCode?: unknown; registerNotificationAddress?: unknown; openClaim?: unknown },
): CatalogueEntry {
  const { hasSandbox, balance, cancel, payment, syncFields, claims } = description.capabilities;
  const signIn = typeof adapter.signInUrl === 'function' && typeof adapter.exchangeSignInCode === 'function';
  const byApi = typeof adapter.openClaim === 'function';
  return {
    ...description,
    // In the order the catalogue has always shown them.
    capabilities: {
      authKind: signIn ? 'signIn' : 'apiKey',
      hasSandbox,
      balance,
      cancel,
      notifications: typeof adapter.registerNotificationAddress === 'function',
      payment,
      syncFields,
      claims: {
        via: byApi ? 'api' : 'person',
        deadlineDays: claims?.deadlineDays ?? null,
        counted: claims?.counted ?? 'fromShipping',
        where: claims?.where ?? (byApi ? "Sent by the service through the supplier's API." : 'At the supplier, by a person.'),
      },
    },
  };
}
