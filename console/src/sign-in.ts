import { api } from './api.js';
import { act, clear, h } from './dom.js';
import type { Ctx, Store } from './types.js';

/** What opening a sign-in answers: the supplier's page, for this browser only. */
export interface OpenedSignIn {
  supplierKey: string;
  mode: 'test' | 'live';
  supplierUrl: string;
  expiresAt: string;
}

/**
 * Opens a sign-in in this browser: the service keeps a one-time value for it in a cookie this page cannot read, and
 * the supplier's way back completes the sign-in only where that cookie is.
 */
export async function openSignIn(storeId: string, signInId: string): Promise<OpenedSignIn> {
  return (
    await api<OpenedSignIn>('POST', `/api/store-suppliers/${encodeURIComponent(storeId)}/oauth/${encodeURIComponent(signInId)}/open`, undefined, {
      cookies: true,
    })
  ).result;
}

/** The store and sign-in a sign-in's address names (`/console#connect/<storeId>/<signInId>`). */
export function signInOf(authorizationUrl: string): { storeId: string; signInId: string } {
  const [, storeId = '', signInId = ''] = new URL(authorizationUrl, location.href).hash.slice(1).split('/');
  return { storeId, signInId };
}

/**
 * A sign-in's address, opened signed in: says which store it connects a supplier to and what that means, and goes on
 * to the supplier only when the person chooses to.
 */
export async function connectPage(root: HTMLElement, _ctx: Ctx, storeId: string, signInId: string): Promise<void> {
  const stores = (await api<Store[]>('GET', '/api/stores')).result;
  const store = stores.find((s) => s.id === storeId);
  const go = h(
    'button',
    {
      type: 'button',
      class: 'primary',
      disabled: !store,
      onclick: () =>
        void act(go, async () => {
          const opened = await openSignIn(storeId, signInId);
          location.assign(opened.supplierUrl);
        }),
    },
    'Continue to the supplier',
  );
  clear(
    root,
    h('h1', { id: 'connect-page' }, 'Connect a supplier'),
    store
      ? h(
          'div',
          { class: 'card' },
          h('p', {}, 'A sign-in at a supplier was started for the store ', h('strong', {}, store.name), '.'),
          h('p', {}, "The supplier account you sign in with there will place this store's orders, paid from that account. Continue only if you expected this."),
          h('p', {}, 'The sign-in finishes in this browser only.'),
          h('div', { class: 'actions' }, go),
        )
      : h('p', { class: 'notice error' }, 'You are not a member of the store this sign-in is for, so it cannot be opened here.'),
  );
}
