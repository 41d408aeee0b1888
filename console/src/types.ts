/** Shapes of the public API's answers, as the console reads them. */
export interface Account {
  id: string;
  email: string;
  name: string;
  plan: string;
  includesDropshipping: boolean;
  isDeveloper: boolean;
  credits: number;
}

export interface Store {
  id: string;
  name: string;
  currency: string;
  role: 'owner' | 'staff';
  permissions: string[] | null;
}

export interface Page<T> {
  items: T[];
  pagination: { nextCursor: string | null; previousCursor: string | null; hasMore: boolean; totalCount: number; pageSize: number };
}

export interface Money {
  amountMinor: number;
  currency: string;
}

/** What every page gets: who is signed in, the chosen store, and a way to refresh the header. */
export interface Ctx {
  account: Account;
  store: Store | null;
  refreshAccount(): Promise<void>;
}
