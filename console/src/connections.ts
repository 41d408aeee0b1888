import { api } from './api.js';
import { act, clear, field, h, notice } from './dom.js';
import type { Capabilities, CatalogueEntry, Connection } from './supplier-connection.js';
import type { Ctx } from './types.js';
import { openSignIn, signInOf } from './sign-in.js';
import { routingForm } from './routing.js';
import { connectionCard } from './connection-card.js';

/** While the merchant signs in at a supplier in another window, the list is read again until the new connection shows. */
let waiting: { supplierKey: string; known: Set<string>; until: number; url: string } | null = null;

function capabilityList(c: Capabilities): HTMLElement {
  return h(
    'ul',
    { class: 'caps' },
    h('li', {}, c.authKind === 'signIn' ? 'Connect by signing in at the supplier' : 'Connect with an API key from the supplier'),
    h('li', {}, c.hasSandbox ? 'Has a test environment' : 'No test environment'),
    h('li', {}, c.balance ? 'Shows your balance' : 'Balance not shown here'),
    h(
      'li',
      {},
      c.payment === 'balance'
        ? 'Orders are paid from your balance at the supplier'
        : c.payment === 'atCreate'
          ? "Orders are paid as they are created (with automatic payment on), or on the supplier's website"
          : 'Orders are paid at the supplier',
    ),
    h('li', {}, c.cancel ? 'Orders can be cancelled' : 'Orders cannot be cancelled from here'),
    h('li', {}, c.notifications ? 'Sends updates as they happen' : 'Updates are read on a schedule'),
    h('li', {}, `Keeps in sync: ${c.syncFields.join(', ') || 'nothing'}`),
  );
}

export async function connectionsPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const storeId = ctx.store!.id;
  const base = `/api/store-suppliers/${storeId}`;
  const render = () => connectionsPage(root, ctx);
  const [catalogue, connections, routing] = await Promise.all([
    api<CatalogueEntry[]>('GET', `${base}/catalogue`),
    api<Connection[]>('GET', base),
    routingForm(storeId, () => connectionsPage(root, ctx)),
  ]);
  const entries = catalogue.result;
  const list = connections.result;

  if (waiting) {
    const added = list.find((c) => c.supplierKey === waiting!.supplierKey && !waiting!.known.has(c.id));
    if (added) {
      waiting = null;
      notice(`Connected: ${added.accountLabel}.`);
    } else if (Date.now() > waiting.until) {
      waiting = null;
      notice('The sign-in at the supplier did not finish. Start it again when you are ready.', 'error');
    } else {
      setTimeout(() => void (document.getElementById('connections-page') === root.firstElementChild && render()), 1500);
    }
  }

  const cards = entries.map((e) => {
    // A supplier without a test environment is connected live only: a test connection to it could place no order at all.
    const mode = h(
      'select',
      { name: 'mode', 'aria-label': 'Environment' },
      h('option', { value: 'live' }, 'Live'),
      e.capabilities.hasSandbox ? h('option', { value: 'test', selected: true }, 'Test') : null,
    );
    // Only the fields the schema requires are required (Printful's store id is for account-level tokens only).
    const needed = new Set(e.credentialsSchema.required ?? Object.keys(e.credentialsSchema.properties ?? {}));
    const creds = Object.entries(e.credentialsSchema.properties ?? {}).map(([name]) =>
      h('input', { name, type: name === 'storeId' ? 'text' : 'password', autocomplete: 'off', required: needed.has(name) }),
    );
    const go = h(
      'button',
      { type: 'submit', class: 'primary', disabled: !e.available },
      e.capabilities.authKind === 'signIn' ? `Sign in at ${e.name}` : `Connect ${e.name}`,
    );
    const submit = async () => {
      if (e.capabilities.authKind === 'signIn') {
        // Signed in here already: open the sign-in in this browser at once and go on to the supplier in a new window.
        const res = await api<{ authorizationUrl: string }>('POST', `${base}/oauth/start`, { supplierKey: e.key, mode: mode.value });
        const opened = await openSignIn(storeId, signInOf(res.result.authorizationUrl).signInId);
        waiting = { supplierKey: e.key, known: new Set(list.map((c) => c.id)), until: Date.now() + 10 * 60_000, url: opened.supplierUrl };
        window.open(opened.supplierUrl, '_blank', 'noopener');
        await render();
        notice(`A ${e.name} window opened: sign in and approve there. This page shows the connection when it is done.`);
        return;
      }
      const credentials = Object.fromEntries(creds.map((c) => [c.name, c.value.trim()]).filter(([name, value]) => value !== '' || needed.has(name)));
      await api('POST', base, { supplierKey: e.key, mode: mode.value, credentials });
      await render();
      notice(`${e.name} connected.`);
    };
    return h(
      'form',
      { class: 'card supplier', onsubmit: (ev: Event) => (ev.preventDefault(), void act(go, submit)) },
      h('h3', {}, e.name, e.available ? null : h('span', { class: 'badge bad' }, 'switched off by the operator')),
      h('p', {}, e.description),
      capabilityList(e.capabilities),
      h(
        'div',
        { class: 'row' },
        field('Environment', mode, e.capabilities.hasSandbox ? undefined : 'No test environment: it connects live only.'),
        ...creds.map((c) =>
          field(
            c.name === 'apiKey' ? `${e.name} API key` : c.name === 'storeId' ? `${e.name} store id` : c.name,
            c,
            needed.has(c.name) ? undefined : 'Optional.',
          ),
        ),
      ),
      h('div', { class: 'actions' }, go),
    );
  });

  clear(
    root,
    h('h1', { id: 'connections-page' }, 'Connections'),
    waiting
      ? h(
          'p',
          { class: 'notice waiting' },
          'Waiting for the sign-in at the supplier to finish… No window? ',
          h('a', { href: waiting.url, target: '_blank', rel: 'noopener noreferrer' }, 'Open the sign-in page'),
          '.',
        )
      : null,
    h(
      'section',
      {},
      h('h2', {}, 'Your suppliers'),
      list.length
        ? h(
            'div',
            {},
            ...list.map((c) =>
              connectionCard(
                c,
                entries.find((e) => e.key === c.supplierKey),
                base,
                render,
              ),
            ),
          )
        : h('p', {}, 'No supplier connected yet.'),
    ),
    h('section', { class: 'card' }, routing),
    h('section', {}, h('h2', {}, 'Connect a supplier'), h('div', { class: 'grid' }, ...cards)),
  );
}
