/**
 * The set-up of the supplier order operations' tests: the shops a file asks for, each with its own store
 * and sandbox account, on a catalogue page of its own. Kinds: poor (balance 0: paying fails with
 * insufficientBalance), rich, and limited (a cost limit of one cent: every order stops with
 * costAboveLimit before anything is sent).
 */
import { openShop, Shop } from '../../support/orders';
import { rl, type Credentials } from '../support/context';
import { credentialsOf, setUp } from '../support/world';

const KINDS = {
	poor: { balanceMinor: 0 },
	rich: {},
	limited: { automation: { costLimit: { amountMinor: 1, currency: 'USD' } } },
};
type Kind = keyof typeof KINDS;

export function supplierOrderFile(pages: Partial<Record<Kind, number>>) {
	const s = setUp('supplierOrder', async (w) => {
		const opened: Partial<Record<Kind, Shop>> = {};
		const kinds = (['poor', 'rich', 'limited'] as const).filter((kind) => pages[kind] !== undefined);
		await Promise.all(kinds.map(async (kind) => (opened[kind] = await openShop(w.svc, w.sandbox, { ...KINDS[kind], page: pages[kind] }))));
		return opened;
	});
	return {
		s,
		shop(kind: Kind): Shop {
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
