import type { ConnectionMode } from '../../suppliers/adapter';
import { DEFAULT_DELIVERY_WATCH, DEFAULT_REROUTE, type SupplierConnection } from '../types';

// The connections domain's data module (this folder): every statement on its tables (connections, sign-ins, call
// rates, order numbers). This file: a connection's row and its mapping, which other domains' statements that read a
// connection with their own rows use too (through ../index.ts).

/** A connection row, as the table has it or as `to_jsonb` gives it inside another statement (times as text). */
export interface ConnectionRow {
  id: string;
  store_id: string;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  supplier_key: string;
  mode: ConnectionMode;
  enabled: boolean;
  credentials_sealed: string | null;
  account_label: string;
  settings: SupplierConnection['settings'];
  automation: SupplierConnection['automation'];
  health: SupplierConnection['health'];
  consecutive_failures: number;
  circuit_open_until: Date | string | null;
  last_webhook_at: Date | string | null;
  disconnected_at: Date | string | null;
  registered_notification_address: string | null;
  supplier_account_key: string | null;
}

const at = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

/** A connection row as the domain's type, without TypeORM's hydration. */
export function connectionOf(r: ConnectionRow): SupplierConnection {
  return {
    id: r.id,
    storeId: r.store_id,
    createdByAccountId: r.created_by_account_id,
    createdByKeyId: r.created_by_key_id,
    createdAt: at(r.created_at)!,
    updatedAt: at(r.updated_at)!,
    supplierKey: r.supplier_key,
    mode: r.mode,
    enabled: r.enabled,
    credentialsSealed: r.credentials_sealed,
    accountLabel: r.account_label,
    settings: r.settings,
    automation: {
      ...r.automation,
      reroute: { ...DEFAULT_REROUTE, ...r.automation.reroute },
      deliveryWatch: { ...DEFAULT_DELIVERY_WATCH, ...r.automation.deliveryWatch },
    },
    health: r.health,
    consecutiveFailures: r.consecutive_failures,
    circuitOpenUntil: at(r.circuit_open_until),
    lastWebhookAt: at(r.last_webhook_at),
    disconnectedAt: at(r.disconnected_at),
    registeredNotificationAddress: r.registered_notification_address,
    supplierAccountKey: r.supplier_account_key,
  };
}

/**
 * A connection row (`c`, written by the statement) as its events keep it: without the sealed credentials (only
 * whether there are any), nor `was`, the value before the change the statement read beside it.
 */
export const connectionSnapshot = (c: string) =>
  `to_jsonb(${c}) - 'was' - 'credentials_sealed' || jsonb_build_object('credentials_sealed', CASE WHEN ${c}.credentials_sealed IS NULL THEN NULL ELSE 'sealed' END)`;
