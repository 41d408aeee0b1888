/**
 * The set-up of the supplier order operations' tests: the shops a file asks for, each with its own store
 * and sandbox account, on a catalogue page of its own. Kinds: poor (balance 0: paying fails with
 * insufficientBalance), rich, limited (a cost limit of one cent: every order stops with
 * costAboveLimit before anything is sent), backed (limited, with no reroute rule, and its first product's
 * supplier variant as the link's alternate on a second connection: the sandbox in test mode), and ruled (backed,
 * with the default rule: its costAboveLimit pauses go to the alternate by themselves).
 */
import { openShop, Shop } from '../../support/orders';
import { connectTestMode, linkWithBackup } from '../../support/backup';
import { rl, type Credentials } from '../support/context';
import { credentialsOf, setUp } from '../support/world';

const KINDS = {
  poor: { balanceMinor: 0 },
  rich: {},
  limited: { automation: { costLimit: { amountMinor: 1, currency: 'USD' } } },
  backed: { automation: { costLimit: { amountMinor: 1, currency: 'USD' }, reroute: { reasons: [], maxCostIncreasePercent: 10 } } },
  ruled: { automation: { costLimit: { amountMinor: 1, currency: 'USD' } } },
};
type Kind = keyof typeof KINDS;
/** `backupConnId`: the backed and ruled shops' second connection, holding its alternate ('' for the other kinds). */
type BackedShop = Shop & { backupConnId: string };

export function supplierOrderFile(pages: Partial<Record<Kind, number>>) {
  const s = setUp('supplierOrder', async (w) => {
    const opened: Partial<Record<Kind, BackedShop>> = {};
    const kinds = (['poor', 'rich', 'limited', 'backed', 'ruled'] as const).filter((kind) => pages[kind] !== undefined);
    await Promise.all(
      kinds.map(async (kind) => {
        const shop = await openShop(w.svc, w.sandbox, { ...KINDS[kind], page: pages[kind] });
        const backupConnId = kind === 'backed' || kind === 'ruled' ? await connectTestMode(w.svc, shop) : '';
        if (backupConnId) await linkWithBackup(w.svc, shop, backupConnId);
        opened[kind] = { ...shop, backupConnId };
      }),
    );
    return opened;
  });
  return {
    s,
    shop(kind: Kind): BackedShop {
      const shop = s.shop[kind];
      if (!shop) throw new Error(`No ${kind} shop in this file`);
      return shop;
    },
    creds: (shop: Shop): Credentials => credentialsOf(s.world.svc, shop.owner.key),
    base: (shop: Shop) => `/api/store-suppliers/${shop.storeId}`,
    params: (shop: Shop, p: Record<string, unknown>) => ({ resource: 'supplierOrder', store: rl(shop.storeId), ...p }),
    topUp: (shop: Shop, balanceMinor: number) => s.world.sandbox.control('POST', `/accounts/${shop.account.accountId}/balance`, { balanceMinor }),
  };
}
