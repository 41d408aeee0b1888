/** One invariant's outcome: held or broken, and for each broken record what each side's records say. */
export interface Verdict {
  name: string;
  held: boolean;
  /** What was checked, in one line (how many records, on which side). */
  checked: string;
  /** One line per record that breaks it: the invariant, the record, and what each side says. */
  failures: string[];
}

/** A verdict from the failures found: held when there are none. At most 20 lines are kept, with a count of the rest. */
export function verdict(name: string, checked: string, failures: string[]): Verdict {
  const kept = failures.length > 20 ? [...failures.slice(0, 20), `… and ${failures.length - 20} more`] : failures;
  return { name, held: failures.length === 0, checked, failures: kept.map((f) => `${name}: ${f}`) };
}

/** Counts of `keys`, only those seen more than once. */
export function repeated<T>(items: T[], key: (x: T) => string): Map<string, T[]> {
  const by = new Map<string, T[]>();
  for (const x of items) by.set(key(x), [...(by.get(key(x)) ?? []), x]);
  for (const [k, xs] of by) if (xs.length < 2) by.delete(k);
  return by;
}
