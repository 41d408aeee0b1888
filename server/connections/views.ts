import type { ConnectionMode } from '../suppliers/adapter';
import type { Automation, SupplierConnection } from './types';

/** A connection as its routes (and its events) answer it: never its credentials, only whether it has any. */
export interface ConnectionView {
  id: string;
  storeId: string;
  supplierKey: string;
  mode: ConnectionMode;
  enabled: boolean;
  hasCredentials: boolean;
  accountLabel: string;
  settings: Record<string, unknown>;
  automation: Automation;
  health: SupplierConnection['health'];
  isCircuitOpen: boolean;
  circuitOpenUntil: string | null;
  lastWebhookAt: string | null;
  webhookUrl: string;
  sharedSupplierAccount: boolean;
  createdByKeyId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The connection as answered; `webhookUrl`: its notification address, `sharedSupplierAccount`: another live connection is on its supplier account. */
export function connectionView(c: SupplierConnection, webhookUrl: string, sharedSupplierAccount: boolean): ConnectionView {
  const open = !!c.circuitOpenUntil && c.circuitOpenUntil.getTime() > Date.now();
  return {
    id: c.id,
    storeId: c.storeId,
    supplierKey: c.supplierKey,
    mode: c.mode,
    enabled: c.enabled,
    hasCredentials: !!c.credentialsSealed,
    accountLabel: c.accountLabel,
    settings: c.settings,
    automation: c.automation,
    health: c.health,
    isCircuitOpen: open,
    circuitOpenUntil: open ? c.circuitOpenUntil!.toISOString() : null,
    lastWebhookAt: c.lastWebhookAt ? c.lastWebhookAt.toISOString() : null,
    webhookUrl,
    sharedSupplierAccount,
    createdByKeyId: c.createdByKeyId,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
