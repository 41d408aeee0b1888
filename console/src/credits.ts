import { api } from './api.js';
import { clear, h } from './dom.js';
import { when } from './format.js';
import type { Ctx } from './types.js';

interface LedgerEntry {
  action: string;
  amount: number;
  balanceAfter: number;
  apiKeyId: string | null;
  reason: string | null;
  createdAt: string;
}

const ACTIONS: Record<string, string> = {
  'credits.purchase': 'Credits bought',
  'operator.grant': 'Credits added by the operator',
  'signUp.grant': 'Welcome credits',
  'storeProduct.create': 'Store product created',
  'supplierConnection.connect': 'Supplier connected',
  'supplierProduct.import': 'Supplier product imported',
  'productLink.create': 'Product linked',
  'supplierOrder.send': 'Order sent to a supplier',
};

const label = (action: string) => (action.endsWith('.refund') ? `Refund: ${ACTIONS[action.slice(0, -7)] ?? action.slice(0, -7)}` : (ACTIONS[action] ?? action));
const describe = (e: LedgerEntry) => (e.reason ? `${label(e.action)}: ${e.reason}` : label(e.action));

let limit = 25;

export async function creditsPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  await ctx.refreshAccount();
  const ledger = (await api<LedgerEntry[]>('GET', `/api/account/credits/ledger?limit=${limit}`)).result;
  const more =
    ledger.length === limit && limit < 200
      ? h('button', { type: 'button', class: 'secondary', onclick: () => ((limit = 200), void creditsPage(root, ctx)) }, 'Show up to 200')
      : null;
  clear(
    root,
    h('h1', {}, 'Credits'),
    h(
      'section',
      { class: 'card' },
      h('p', { class: 'big' }, `${ctx.account.credits} credits`),
      h(
        'p',
        {},
        'Actions that create something (connecting a supplier, importing, sending an order) use credits; reading is free. A failed action gives its credits back.',
      ),
      // Credits and plans are the operator's to give: no page here adds them.
      h(
        'p',
        { class: 'how-to-buy' },
        'To buy credits or change your plan, contact the operator of this service (your billing contact). Credits they add show below with their reason.',
      ),
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Latest movements'),
      ledger.length
        ? h(
            'table',
            {},
            h('thead', {}, h('tr', {}, ...['When', 'What', 'Credits', 'Balance after', 'By'].map((t) => h('th', {}, t)))),
            h(
              'tbody',
              {},
              ...ledger.map((e) =>
                h(
                  'tr',
                  {},
                  h('td', {}, when(e.createdAt)),
                  h('td', {}, describe(e)),
                  h('td', { class: e.amount < 0 ? 'neg num' : 'pos num' }, e.amount > 0 ? `+${e.amount}` : String(e.amount)),
                  h('td', { class: 'num' }, String(e.balanceAfter)),
                  h('td', {}, e.apiKeyId ? 'an API key' : 'you, signed in'),
                ),
              ),
            ),
          )
        : h('p', {}, 'No movements yet.'),
      more,
    ),
  );
}
