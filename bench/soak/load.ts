/**
 * The mixed load, as loops that run until stopped: shoppers ordering and paying at every store; imports and link
 * syncs; the merchant's manual dispatch of CJ parts; the suppliers shipping and moving stock; the provider's late
 * resends. A loop's failure is counted and it carries on: the faults make calls fail, and that is the point.
 */
import { sleep } from './api';
import { Catalogues, importOne, SupplierName } from './catalogues';
import type { ManualDispatch } from './merchant';
import type { Shoppers } from './shoppers';
import type { SupplierSide } from './supplier-side';
import type { Store } from './world';

export interface Loops {
  /** Stops the shoppers, imports and syncs (the settle phase keeps the merchant, the suppliers and the provider going). */
  stopBuying(): Promise<void>;
  stop(): Promise<void>;
  errors: Map<string, number>;
  imports: number;
  syncs: number;
  /** Connections the service switched off (AliExpress refusing the buyer account) that the merchant switched on again. */
  switchedOn: number;
}

export function startLoad(stores: Store[], cats: Catalogues, shoppers: Shoppers, dispatch: ManualDispatch, side: SupplierSide, random: () => number): Loops {
  let buying = true;
  let running = true;
  const errors = new Map<string, number>();
  const loops: Array<Promise<void>> = [];
  const out: Loops = { stopBuying: async () => undefined, stop: async () => undefined, errors, imports: 0, syncs: 0, switchedOn: 0 };

  const every = (name: string, ms: () => number, alive: () => boolean, fn: () => Promise<unknown>) =>
    loops.push(
      (async () => {
        await sleep(ms() * random());
        while (alive()) {
          await fn().catch((err: unknown) => {
            const key = `${name}: ${err instanceof Error ? err.message.slice(0, 120) : String(err)}`;
            errors.set(key, (errors.get(key) ?? 0) + 1);
          });
          await sleep(ms());
        }
      })(),
    );

  const kinds: SupplierName[] = ['sandbox', 'cj', 'aliexpress', 'printful'];
  for (const store of stores) {
    every(
      'shopper',
      () => 3000 + random() * 4000,
      () => buying,
      () => shoppers.order(store, (o) => dispatch.add(o)),
    );
    let next = 0;
    every(
      'import',
      () => 45000,
      () => buying,
      async () => {
        if (await importOne(store, cats, kinds[next++ % kinds.length])) out.imports++;
      },
    );
    every(
      'link sync',
      () => 20000,
      () => buying,
      async () => {
        const links = await store.api.call<{ result: { items: Array<{ id: string }> } }>('GET', `/api/store-suppliers/${store.storeId}/links?pageSize=100`, {
          key: store.owner.key,
        });
        if (links.status !== 200 || !links.body.result.items.length) return;
        const link = links.body.result.items[Math.floor(random() * links.body.result.items.length)];
        const synced = await store.api.call('POST', `/api/store-suppliers/${store.storeId}/links/${link.id}/sync`, { key: store.owner.key });
        if (synced.status === 200) out.syncs++;
      },
    );
    // AliExpress's refusal of the buyer account switches the connection off; the merchant settles it with AliExpress
    // and switches it on again, as its health says to (else the run would send AliExpress nothing from then on).
    every(
      'switch on again',
      () => 20000,
      () => running,
      async () => {
        const conns = await store.api.call<{ result: Array<{ id: string; enabled: boolean }> }>('GET', `/api/store-suppliers/${store.storeId}`, {
          key: store.owner.key,
        });
        for (const c of conns.status === 200 ? conns.body.result.filter((x) => !x.enabled) : []) {
          const on = await store.api.call('PUT', `/api/store-suppliers/${store.storeId}/${c.id}/enabled`, { key: store.owner.key, body: { enabled: true } });
          if (on.status === 200) out.switchedOn++;
        }
      },
    );
  }
  every(
    'manual dispatch',
    () => 1000,
    () => running,
    () => dispatch.pass(),
  );
  every(
    'suppliers ship',
    () => 5000,
    () => running,
    () => side.ship(),
  );
  every(
    'stock moves',
    () => 20000,
    () => buying,
    () => side.moveStock(stores.flatMap((s) => s.products)),
  );
  every(
    'provider resends',
    () => 15000,
    () => running,
    () => shoppers.resendUndelivered(),
  );

  const finish = async () => {
    // A loop ends within its interval; none waits on anything longer than a call's time limit.
    await Promise.race([Promise.all(loops), sleep(90000)]);
  };
  out.stopBuying = async () => {
    buying = false;
  };
  out.stop = async () => {
    buying = false;
    running = false;
    await finish();
  };
  return out;
}
