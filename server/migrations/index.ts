import type { Migration } from '../platform/domain';

// The migration files stay here; each is listed by the domain that owns it (its module's `migrations`, in
// server/composition.ts's list), and the data source runs them in timestamp order.

/** A migration's timestamp: the digits its name ends with. */
const timestampOf = (m: Migration): number => Number(/(\d+)$/.exec(new m().name ?? '')?.[1]);

/** The migrations in the order they run: by timestamp (a missing or repeated one is a mistake in the list). */
export function inTimestampOrder(migrations: readonly Migration[]): Migration[] {
  const sorted = [...migrations].sort((a, b) => timestampOf(a) - timestampOf(b));
  sorted.forEach((m, i) => {
    if (!Number.isFinite(timestampOf(m)) || (i > 0 && timestampOf(sorted[i - 1]) === timestampOf(m))) throw new Error(`migration ${new m().name} has no timestamp of its own`);
  });
  return sorted;
}
