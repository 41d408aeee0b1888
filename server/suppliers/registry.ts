import type { CatalogueEntry, SupplierAdapter } from './adapter';

/** Looks adapters up by supplier key; the operator can switch a supplier off for everyone. */
export class SupplierRegistry {
  private readonly byKey = new Map<string, SupplierAdapter>();

  constructor(
    adapters: SupplierAdapter[],
    private readonly switchedOff: ReadonlySet<string>,
  ) {
    for (const a of adapters) this.byKey.set(a.entry.key, a);
  }

  /** The adapter, or null when the key is unknown. Switched-off suppliers are still answered: callers decide. */
  find(key: string): SupplierAdapter | null {
    return this.byKey.get(key) ?? null;
  }

  /** Every adapter, switched off or not. */
  adapters(): SupplierAdapter[] {
    return [...this.byKey.values()];
  }

  isSwitchedOff(key: string): boolean {
    return this.switchedOff.has(key);
  }

  /** Dispatch jobs of one connection allowed at once, by supplier key, as each adapter declares. */
  callsInFlight(): Record<string, number> {
    return Object.fromEntries([...this.byKey.values()].map((a) => [a.entry.key, a.limits.callsInFlight]));
  }

  entries(): Array<CatalogueEntry & { available: boolean }> {
    return [...this.byKey.values()].map((a) => ({ ...a.entry, available: !this.switchedOff.has(a.entry.key) }));
  }
}
