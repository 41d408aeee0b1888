import { api } from './api.js';
import { act, clear, confirmAction, copyText, field, h, notice } from './dom.js';
import { when } from './format.js';
import type { ApiKey, AssistantLink, Ctx } from './types.js';
import { type NewKey, revoke, rotate, rotationCard } from './key-rotation.js';

const SCOPES = { own: 'Only what this key made', account: 'Everything in the account' };
/** A key to show once after the page is drawn again (kept in memory only, dropped once shown). */
let pending: NewKey | null = null;

const scopeSelect = (value: string) =>
  h('select', { name: 'recordScope' }, ...Object.entries(SCOPES).map(([v, label]) => h('option', { value: v, selected: v === value }, label)));

export async function keysPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const render = () => keysPage(root, ctx);
  if (!ctx.account.isDeveloper) {
    const up = h(
      'button',
      {
        type: 'button',
        class: 'primary',
        onclick: () => void act(up, async () => (await api('POST', '/api/account/developer'), await ctx.refreshAccount(), await render())),
      },
      'Become a developer (free)',
    );
    clear(
      root,
      h('h1', {}, 'API keys'),
      h(
        'section',
        { class: 'card' },
        h(
          'p',
          {},
          'API keys let your own programs, n8n or an assistant use the service. They need a Developer account; the upgrade is free and changes nothing else.',
        ),
        up,
      ),
    );
    return;
  }
  const keys = (await api<ApiKey[]>('GET', '/api/api-keys')).result;
  const secret = h('section', { id: 'secret', class: 'card', hidden: true });
  const showSecret = (title: string, key: string, link: AssistantLink) => {
    const input = h('input', { readonly: true, value: key, id: 'secret-key', 'aria-label': 'The full key', class: 'mono' });
    const config = JSON.stringify({ url: link.url, transport: link.transport, headers: link.headers }, null, 2);
    clear(
      secret,
      h('h2', {}, title),
      h('p', {}, 'Keep it on a server only: never in a web page, an app or a shared document. You can copy it again here while signed in.'),
      h('div', { class: 'row' }, input, h('button', { type: 'button', class: 'primary', onclick: () => void copyText(key, 'Key') }, 'Copy key')),
      h('h3', {}, 'Assistant (MCP) link'),
      h('p', {}, "Paste this into an assistant's configuration to let it use the service with this key's rights."),
      h('pre', { class: 'mono' }, config),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', onclick: () => void copyText(config, 'Assistant link') }, 'Copy assistant link'),
        h('button', { type: 'button', class: 'secondary', onclick: () => (clear(secret), (secret.hidden = true)) }, 'Hide'),
      ),
    );
    secret.hidden = false;
    input.select();
  };

  const name = h('input', { name: 'name', required: true, maxlength: 100, placeholder: 'for example: n8n production' });
  const scope = scopeSelect('own');
  const create = h('button', { type: 'submit', class: 'primary' }, 'Create key');
  const form = h(
    'form',
    {
      class: 'card',
      onsubmit: (ev: Event) => (
        ev.preventDefault(),
        void act(create, async () => {
          const res = await api<{ key: string; apiKey: ApiKey; assistantLink: AssistantLink }>('POST', '/api/api-keys', {
            name: name.value,
            recordScope: scope.value,
          });
          pending = { title: `Your new key "${res.result.apiKey.name}"`, key: res.result.key, link: res.result.assistantLink };
          await render();
          notice(`Key "${res.result.apiKey.name}" created.`);
        })
      ),
    },
    h('h2', {}, 'New key'),
    h('div', { class: 'row' }, field('Name', name), field('Records it can see', scope, 'A key that sees only its own records suits one integration.')),
    h('div', { class: 'actions' }, create),
  );

  const table = (list: ApiKey[]) =>
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, ...['Name', 'Key', 'Records it can see', 'Last used', 'Created', 'Status', ''].map((t) => h('th', {}, t)))),
      h('tbody', {}, ...list.map((k) => keyRow(k, render, showSecret))),
    );
  const active = keys.filter((k) => !k.revoked);
  // Revoked keys are kept for the record but fold away: they can do nothing any more.
  const revoked = keys.filter((k) => k.revoked);
  clear(
    root,
    h('h1', {}, 'API keys'),
    secret,
    rotationCard(keys, render, (p) => (pending = p)),
    form,
    h(
      'section',
      { class: 'card' },
      h('h2', {}, `Keys (${active.length})`),
      active.length ? table(active) : h('p', {}, 'No active key.'),
      revoked.length ? h('details', { class: 'revoked' }, h('summary', {}, `Revoked keys (${revoked.length})`), table(revoked)) : null,
    ),
  );
  if (pending) showSecret(pending.title, pending.key, pending.link);
  pending = null;
}

function keyRow(k: ApiKey, render: () => Promise<void>, showSecret: (t: string, key: string, link: AssistantLink) => void): HTMLElement {
  const b = (label: string, run: (btn: HTMLButtonElement) => Promise<unknown>, cls = 'secondary') => {
    const btn: HTMLButtonElement = h('button', { type: 'button', class: cls, onclick: () => void act(btn, () => run(btn)) }, label);
    return btn;
  };
  const actions = k.revoked
    ? []
    : [
        b('Copy key', async () => {
          const res = await api<{ key: string; assistantLink: AssistantLink }>('GET', `/api/api-keys/${k.id}/secret`);
          // Straight to the clipboard; only when the browser refuses is the key shown to copy by hand.
          if (!(await copyText(res.result.key, `Key "${k.name}"`))) showSecret(`Key "${k.name}"`, res.result.key, res.result.assistantLink);
        }),
        b('Assistant link', async () => {
          const res = await api<{ key: string; assistantLink: AssistantLink }>('GET', `/api/api-keys/${k.id}/secret`);
          showSecret(`Key "${k.name}"`, res.result.key, res.result.assistantLink);
        }),
        b('Rename', async () => {
          const input = h('input', { value: k.name, maxlength: 100, required: true, 'aria-label': 'New name' });
          if (!(await confirmAction({ title: `Rename "${k.name}"`, body: ['The key itself does not change.'], action: 'Rename', input }))) return;
          await api('PATCH', `/api/api-keys/${k.id}`, { name: input.value });
          await render();
          notice(`Renamed to "${input.value}".`);
        }),
        b('Change records', async () => {
          const select = scopeSelect(k.recordScope);
          if (!(await confirmAction({ title: `What "${k.name}" can see`, body: ['Applies from its next call.'], action: 'Save', input: select }))) return;
          await api('PATCH', `/api/api-keys/${k.id}`, { recordScope: select.value });
          await render();
          notice(`"${k.name}" now sees: ${SCOPES[select.value as 'own']}.`);
        }),
        b('Rotate', async () => {
          rotate(k.id);
          await render();
        }),
        b(
          'Revoke',
          async () => {
            if (await revoke(k)) await render();
          },
          'danger',
        ),
      ];
  return h(
    'tr',
    { 'data-key-id': k.id },
    h('td', {}, k.name),
    h('td', { class: 'mono' }, k.maskedKey),
    h('td', {}, SCOPES[k.recordScope]),
    h('td', {}, when(k.lastUsedAt)),
    h('td', {}, when(k.createdAt)),
    h('td', {}, k.revoked ? h('span', { class: 'badge bad' }, `Revoked ${when(k.revokedAt)}`) : h('span', { class: 'badge ok' }, 'Active')),
    h('td', {}, h('div', { class: 'buttons' }, ...actions)),
  );
}
