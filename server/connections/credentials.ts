import type { SupplierAdapter } from '../suppliers/adapter';
import type { NotificationAddresses } from './addresses';
import type { SupplierGateway } from './gateway';
import { orSupplierFailure } from './http-errors';
import { gathering } from './settings';
import type { SupplierConnection } from './types';

/** A connection, or the draft of one being made: what the supplier's checks while connecting are made for. */
type Draft = Pick<SupplierConnection, 'id' | 'storeId' | 'mode' | 'settings' | 'supplierKey'>;

/** What a connection's row keeps of credentials the supplier accepted. */
export interface VerifiedCredentials {
  credentialsSealed: string;
  accountLabel: string;
  registeredNotificationAddress: string | null;
  supplierAccountKey: string | null;
}

/**
 * Verifies the credentials with the supplier, then (after `beforeRegister`, which may refuse) registers the
 * connection's notification address with them; nothing is stored here. The credentials are gathered, not written
 * into a row, until they are verified: a supplier that refreshes them while checking changes the gathered copy.
 */
export async function verifyCredentials(
  gateway: SupplierGateway,
  addresses: NotificationAddresses,
  adapter: SupplierAdapter,
  conn: Draft,
  credentials: Record<string, string>,
  beforeRegister: () => Promise<void> = async () => undefined,
): Promise<VerifiedCredentials> {
  const { working, onChanged } = gathering(credentials);
  const { accountLabel, accountId } = await orSupplierFailure(adapter.verifyCredentials(gateway.context(conn, working, onChanged)));
  await beforeRegister();
  const registered = await addresses.register(adapter, conn, working, onChanged);
  const kept = { ...working, ...registered.fields };
  return {
    credentialsSealed: gateway.sealCredentials(kept),
    accountLabel,
    registeredNotificationAddress: registered.url,
    supplierAccountKey: gateway.supplierAccountKey(accountId),
  };
}
