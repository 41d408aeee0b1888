/** Rotating an API key as the spec describes it (./keys.ts): a new key, the integration moved to it, then the old one revoked. */
import { api } from './api.js';
import { act, confirmAction, h, notice } from './dom.js';
import { when } from './format.js';
import type { ApiKey, AssistantLink } from './types.js';

/** A new key to show once, after the page is drawn again. */
export interface NewKey {
  title: string;
  key: string;
  link: AssistantLink;
}

/** The rotation under way, kept while the page is open: the key being replaced and its successor. */
let rotation: { oldId: string; newId: string | null } | null = null;

export function rotate(oldId: string): void {
  rotation = { oldId, newId: null };
}

/** Asks first; answers whether the key was revoked. */
export async function revoke(k: ApiKey): Promise<boolean> {
  const ok = await confirmAction({
    title: `Revoke "${k.name}"?`,
    body: [`Every program using ${k.maskedKey} is refused from now on, including its assistant link. This cannot be undone.`],
    action: 'Revoke key',
    danger: true,
  });
  if (!ok) return false;
  await api('DELETE', `/api/api-keys/${k.id}`);
  notice(`"${k.name}" is revoked.`);
  return true;
}

/** Create the new key, move the integration, watch its last-used time move, then revoke the old one. */
export function rotationCard(keys: ApiKey[], render: () => Promise<void>, remember: (key: NewKey) => void): HTMLElement | null {
  const old = rotation && keys.find((k) => k.id === rotation!.oldId && !k.revoked);
  if (!rotation || !old) return (rotation = null);
  const fresh = rotation.newId ? keys.find((k) => k.id === rotation!.newId) : undefined;
  const step = (done: boolean, ...c: Array<Node | string | null>) => h('li', { class: done ? 'done' : undefined }, ...c);
  const make: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'primary',
      onclick: () =>
        void act(make, async () => {
          const res = await api<{ key: string; apiKey: ApiKey; assistantLink: AssistantLink }>('POST', '/api/api-keys', {
            name: `${old.name} (new)`.slice(0, 100),
            recordScope: old.recordScope,
          });
          rotation!.newId = res.result.apiKey.id;
          remember({ title: `The new key "${res.result.apiKey.name}"`, key: res.result.key, link: res.result.assistantLink });
          await render();
        }),
    },
    'Create the new key',
  );
  const check: HTMLButtonElement = h('button', { type: 'button', class: 'secondary', onclick: () => void act(check, render) }, 'Check again');
  const finish: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'danger',
      disabled: !fresh?.lastUsedAt,
      onclick: () =>
        void act(finish, async () => {
          if (await revoke(old)) {
            rotation = null;
            await render();
          }
        }),
    },
    `Revoke "${old.name}"`,
  );
  const stop = h('button', { type: 'button', class: 'secondary', onclick: () => ((rotation = null), void render()) }, 'Stop rotating');
  return h(
    'section',
    { class: 'card rotation' },
    h('h2', {}, `Rotating "${old.name}"`),
    h(
      'ol',
      {},
      step(!!fresh, 'Create a new key with the same records. ', fresh ? `Done: "${fresh.name}".` : make),
      step(!!fresh?.lastUsedAt, 'Put the new key in your integration (n8n credential, server setting) in place of the old one.'),
      step(
        !!fresh?.lastUsedAt,
        'Wait until the new key has been used: ',
        h('strong', {}, fresh ? `last used ${when(fresh.lastUsedAt, 'not yet')}` : 'create it first'),
        ' ',
        fresh ? check : null,
        ` (the old key: last used ${when(old.lastUsedAt)}).`,
      ),
      step(false, 'Revoke the old key. ', finish),
    ),
    stop,
  );
}
