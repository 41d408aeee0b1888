/**
 * The sandbox's warehouses: each a supplier identity of its own (its accounts, orders and stock), served by the same
 * program. The main one answers at `/`; the second, "eu", at `/eu`, with a catalogue that overlaps the main one (the
 * same products and variants, most of them) at other costs, stock, origin, delivery times and shipping prices, so a
 * store can try backup suppliers with one program running.
 */
import { DEMO_ACCOUNT, EU_DEMO_ACCOUNT } from './accounts';

export interface Warehouse {
  /** The path it answers under ('' for the main one). */
  prefix: string;
  builtInAccount: { id: string; email: string; liveKey: string; testKey: string };
  shipsFrom: string;
  /** Delivery days: the shortest minimum and the spread of maximums, per product. */
  deliveryDays: { min: number; max: number };
  /** An order's shipping: the base price and each further unit, in cents. */
  shipping: { baseMinor: number; perUnitMinor: number };
  /** Null for the main catalogue; else how the overlapping one differs (its own seeded stream, the main one untouched). */
  overlap: { carries: number; costFactor: { min: number; max: number }; salt: number } | null;
}

export const MAIN_WAREHOUSE: Warehouse = {
  prefix: '',
  builtInAccount: DEMO_ACCOUNT,
  shipsFrom: 'CN',
  deliveryDays: { min: 8, max: 15 },
  shipping: { baseMinor: 499, perUnitMinor: 100 },
  overlap: null,
};

export const EU_WAREHOUSE: Warehouse = {
  prefix: '/eu',
  builtInAccount: EU_DEMO_ACCOUNT,
  shipsFrom: 'DE',
  deliveryDays: { min: 2, max: 4 },
  shipping: { baseMinor: 899, perUnitMinor: 150 },
  overlap: { carries: 0.75, costFactor: { min: 0.85, max: 1.3 }, salt: 0x45550001 },
};
