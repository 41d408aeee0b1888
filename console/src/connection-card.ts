/** One connected supplier on the connections page (./connections.ts): its account, health and balance, its switches, automation and settings. */
import { api, ApiFailure } from './api.js';
import { automationForm } from './automation.js';
import { act, confirmAction, h, notice } from './dom.js';
import { money, when } from './format.js';
import type { CatalogueEntry, Connection } from './supplier-connection.js';
import type { Money } from './types.js';
import { settingsForm } from './settings.js';

export function connectionCard(c: Connection, entry: CatalogueEntry | undefined, base: string, render: () => Promise<void>): HTMLElement {
  const url = `${base}/${c.id}`;
  const name = entry?.name ?? c.supplierKey;
  const balance = h('span', {}, entry?.capabilities.balance ? '…' : 'not shown for this supplier');
  if (entry?.capabilities.balance) {
    api<Money>('GET', `${url}/balance`).then(
      (r) => (balance.textContent = money(r.result.amountMinor, r.result.currency)),
      (err: ApiFailure) => (balance.textContent = `not available (${err.message})`),
    );
  }
  const btn = (label: string, run: () => Promise<unknown>, cls = 'secondary') => {
    const b: HTMLButtonElement = h('button', { type: 'button', class: cls, onclick: () => void act(b, run) }, label);
    return b;
  };
  // The latest known: a test, or the last call to the supplier (the service records both).
  const health = c.health
    ? `${c.health.status === 'healthy' ? 'Working' : 'Not working'}, as of ${when(c.health.checkedAt)}${c.health.message ? `: ${c.health.message}` : ''}`
    : 'Nothing known yet: no call has been made. Use "Test now".';
  return h(
    'article',
    { class: 'card connection', 'data-connection-id': c.id },
    h(
      'h3',
      {},
      name,
      ' ',
      h('span', { class: `badge ${c.enabled ? 'ok' : 'bad'}` }, c.enabled ? 'On' : 'Off'),
      ' ',
      h('span', { class: 'badge' }, c.mode === 'live' ? 'Live' : 'Test'),
    ),
    h(
      'div',
      { class: 'columns' },
      h(
        'div',
        {},
        h(
          'dl',
          {},
          h('dt', {}, 'Account'),
          h('dd', {}, c.accountLabel),
          h('dt', {}, 'Health'),
          h('dd', {}, health, c.isCircuitOpen ? ` · paused until ${when(c.circuitOpenUntil)} after repeated failures` : ''),
          h('dt', {}, 'Balance'),
          h('dd', {}, balance),
          h('dt', {}, 'Connected'),
          h('dd', {}, when(c.createdAt)),
        ),
        h(
          'div',
          { class: 'buttons' },
          btn('Test now', async () => {
            const r = await api<Connection>('POST', `${url}/test`);
            await render();
            notice(
              r.result.health?.status === 'healthy' ? `${name} answers.` : `${name} does not answer: ${r.result.health?.message ?? ''}`,
              r.result.health?.status === 'healthy' ? 'ok' : 'error',
            );
          }),
          btn(c.enabled ? 'Switch off' : 'Switch on', async () => {
            if (
              c.enabled &&
              !(await confirmAction({
                title: `Switch ${name} off?`,
                body: ['No order is sent to it while it is off; orders that would go to it stop for review.'],
                action: 'Switch off',
                danger: true,
              }))
            )
              return;
            await api('PUT', `${url}/enabled`, { enabled: !c.enabled });
            await render();
            notice(`${name} is ${c.enabled ? 'off' : 'on'}.`);
          }),
          btn(
            'Disconnect…',
            async () => {
              const impact = (await api<{ linkedProducts: number; openSupplierOrders: number }>('GET', `${url}/impact`)).result;
              const ok = await confirmAction({
                title: `Disconnect ${name}?`,
                body: [
                  `${impact.linkedProducts} linked product(s) stay in your store as your own products, no longer synced.`,
                  `${impact.openSupplierOrders} open supplier order(s) are no longer followed here.`,
                  'The stored credentials are deleted. This cannot be undone.',
                ],
                action: 'Disconnect',
                danger: true,
              });
              if (!ok) return;
              await api('DELETE', url);
              await render();
              notice(`${name} disconnected.`);
            },
            'danger',
          ),
        ),
      ),
      automationForm(c.automation, url, render),
      entry ? settingsForm(entry, c, url, render) : null,
    ),
  );
}
