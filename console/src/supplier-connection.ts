/** A supplier connection and the catalogue entry of its supplier, as the API answers them. */
import type { Automation } from './automation.js';

export interface Capabilities {
  authKind: 'apiKey' | 'signIn';
  hasSandbox: boolean;
  balance: boolean;
  cancel: boolean;
  notifications: boolean;
  payment: 'balance' | 'atCreate' | 'external';
  syncFields: string[];
}
export interface CatalogueEntry {
  key: string;
  name: string;
  description: string;
  available: boolean;
  capabilities: Capabilities;
  settingsSchema: { properties?: Record<string, Record<string, unknown>> };
  credentialsSchema: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
}
export interface Connection {
  id: string;
  supplierKey: string;
  mode: 'test' | 'live';
  enabled: boolean;
  accountLabel: string;
  settings: Record<string, unknown>;
  automation: Automation;
  health: { status: string; checkedAt: string; message: string } | null;
  isCircuitOpen: boolean;
  circuitOpenUntil: string | null;
  createdAt: string;
}
