import { api, ApiFailure, setSession } from './api.js';
import { act, clear, errorText, field, h, notice } from './dom.js';
import type { Account, Ctx, Store } from './types.js';
import { keysPage } from './keys.js';
import { connectionsPage } from './connections.js';
import { reviewPage } from './review.js';
import { cataloguePage } from './catalogue.js';
import { ordersPage } from './orders.js';
import { orderPage } from './order.js';
import { productsPage } from './products.js';
import { creditsPage } from './credits.js';
import { profitPage } from './profit.js';
import { connectPage } from './sign-in.js';

/** The pages, by their address (`#orders/<id>` is one order: the part after the slash goes to the page). */
const PAGES: Record<string, { title: string; render: (root: HTMLElement, ctx: Ctx, id?: string) => Promise<void>; needsStore: boolean }> = {
  review: { title: 'Review queue', render: reviewPage, needsStore: true },
  orders: { title: 'Orders', render: (root, ctx, id) => (id ? orderPage(root, ctx, id) : ordersPage(root, ctx)), needsStore: true },
  profit: { title: 'Profit', render: profitPage, needsStore: true },
  products: { title: 'Supplier products', render: productsPage, needsStore: true },
  catalog: { title: 'Imports and links', render: cataloguePage, needsStore: true },
  connections: { title: 'Connections', render: connectionsPage, needsStore: true },
  keys: { title: 'API keys', render: keysPage, needsStore: false },
  credits: { title: 'Credits', render: creditsPage, needsStore: false },
};

const app = document.getElementById('app')!;
let ctx: Ctx | null = null;
let stores: Store[] = [];

function signInForm(message?: string, knownEmail = ''): void {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true, value: knownEmail });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h(
    'form',
    { class: 'card signin', onsubmit: (ev: Event) => (ev.preventDefault(), void act(submit, () => signIn(email.value, password.value))) },
    h('h1', {}, 'Store Suppliers console'),
    h('p', {}, "Sign in with your account's e-mail address and password. The console never asks for an API key."),
    location.hash.startsWith('#connect/') ? h('p', { class: 'notice waiting' }, 'Sign in to go on connecting a supplier to your store.') : null,
    message ? h('p', { class: 'notice error' }, message) : null,
    field('E-mail', email),
    field('Password', password),
    h('div', { class: 'actions' }, submit),
  );
  clear(app, h('div', { id: 'notice', class: 'notice', hidden: true, role: 'status' }), form);
  (knownEmail ? password : email).focus();
}

async function signIn(email: string, password: string): Promise<void> {
  try {
    const res = await api<{ sessionToken: string; account: Account }>('POST', '/api/auth/sign-in', { email, password });
    setSession(res.result.sessionToken, () => signInForm('Your session ended; sign in again.'));
    await start(res.result.account);
  } catch (err) {
    signInForm(err instanceof ApiFailure && err.code === 'invalidCredentials' ? 'That e-mail address and password do not match.' : errorText(err), email);
  }
}

async function start(account: Account): Promise<void> {
  stores = (await api<Store[]>('GET', '/api/stores')).result;
  const storeId = sessionStorePick();
  ctx = {
    account,
    store: stores.find((s) => s.id === storeId) ?? stores[0] ?? null,
    refreshAccount: async () => {
      ctx!.account = (await api<Account>('GET', '/api/account')).result;
      header();
    },
  };
  await show();
}

// The chosen store is remembered for this tab only; a store id is not a secret.
const sessionStorePick = () => sessionStorage.getItem('consoleStore');

function header(): HTMLElement {
  const c = ctx!;
  const picker = h(
    'select',
    {
      'aria-label': 'Store',
      onchange: (ev: Event) => {
        const id = (ev.target as HTMLSelectElement).value;
        c.store = stores.find((s) => s.id === id) ?? null;
        sessionStorage.setItem('consoleStore', id);
        void show();
      },
    },
    ...stores.map((s) => h('option', { value: s.id, selected: s.id === c.store?.id }, s.name)),
  );
  const out = h('button', { type: 'button', class: 'secondary', onclick: () => void signOut() }, 'Sign out');
  const bar = h(
    'header',
    { id: 'top' },
    h('strong', { class: 'brand' }, 'Store Suppliers'),
    stores.length ? picker : null,
    h('span', { class: 'who' }, `${c.account.name} · ${c.account.email} · plan ${c.account.plan} · ${c.account.credits} credits`),
    out,
  );
  document.getElementById('top')?.replaceWith(bar);
  return bar;
}

async function signOut(): Promise<void> {
  await api('POST', '/api/auth/sign-out').catch(() => undefined);
  setSession(null);
  ctx = null;
  location.hash = '';
  signInForm('Signed out.');
}

function nav(current: string): HTMLElement {
  return h(
    'nav',
    {},
    ...Object.entries(PAGES).map(([id, p]) =>
      h('a', { href: `#${id}`, class: id === current ? 'current' : undefined, 'aria-current': id === current ? 'page' : undefined }, p.title),
    ),
  );
}

async function show(): Promise<void> {
  if (!ctx) return;
  const [address, sub, more] = location.hash.slice(1).split('/');
  // A supplier sign-in's address (`#connect/<storeId>/<signInId>`): not a page of the navigation.
  if (address === 'connect') return showPage('Connect a supplier · Store Suppliers', '', (root) => connectPage(root, ctx!, sub ?? '', more ?? ''));
  const id = address in PAGES ? address : 'review';
  const page = PAGES[id];
  const c = ctx;
  if (page.needsStore && !c.store) return showPage(`${page.title} · Store Suppliers`, id, async (root) => noStore(root));
  await showPage(`${page.title} · Store Suppliers`, id, (root) => page.render(root, c, sub ? decodeURIComponent(sub) : undefined));
}

async function showPage(title: string, current: string, render: (root: HTMLElement) => Promise<void>): Promise<void> {
  const root = h('main', { id: 'page' });
  clear(app, header(), nav(current), h('div', { id: 'notice', class: 'notice', hidden: true, role: 'status' }), root);
  document.title = title;
  try {
    await render(root);
  } catch (err) {
    notice(errorText(err), 'error');
  }
}

function noStore(root: HTMLElement): void {
  const name = h('input', { required: true, maxlength: 200 });
  const currency = h('input', { required: true, value: 'USD', pattern: '[A-Z]{3}', maxlength: 3 });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create the store');
  clear(
    root,
    h('h1', {}, 'No store yet'),
    h(
      'form',
      {
        class: 'card',
        onsubmit: (ev: Event) => (
          ev.preventDefault(),
          void act(submit, async () => {
            const res = await api<Store>('POST', '/api/stores', { name: name.value, currency: currency.value });
            sessionStorage.setItem('consoleStore', res.result.id);
            await start(ctx!.account);
          })
        ),
      },
      h('p', {}, 'Suppliers, orders and links belong to a store. Create one to start.'),
      field('Store name', name),
      field('Currency', currency, 'Three letters, for example USD or EUR'),
      h('div', { class: 'actions' }, submit),
    ),
  );
}

window.addEventListener('hashchange', () => void show());
signInForm();
