import { api, qs } from './api.js';
import { act, clear, field, h, when } from './dom.js';
import type { Ctx, Page } from './types.js';
import { supplierNames } from './names.js';

interface Link {
  id: string;
  productId: string;
  supplierKey: string;
  supplierProductId: string;
  variants: unknown[];
  lastSyncAt: string | null;
  lastSyncError: string | null;
  createdAt: string;
}
interface ImportJob {
  id: string;
  status: string;
  total: number;
  done: number;
  failed: number;
  errors: Array<{ supplierProductId?: string; message?: string; code?: string }>;
  createdProductIds: string[];
  createdAt: string;
  finishedAt: string | null;
}

let cursor: string | undefined;
/** Import jobs looked up while the page is open (the API has no list of jobs, only one job by its id). */
const jobs = new Map<string, ImportJob>();

export async function cataloguePage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const base = `/api/store-suppliers/${ctx.store!.id}`;
  const render = () => cataloguePage(root, ctx);
  for (const id of jobs.keys()) jobs.set(id, (await api<ImportJob>('GET', `${base}/imports/${id}`)).result);
  const links = (await api<Page<Link>>('GET', `${base}/links${qs({ pageSize: 10, cursor })}`)).result;
  const names = await supplierNames(ctx.store!.id);
  // Product titles for the links on this page (the newest 100 products cover a fresh import).
  const products = (await api<Page<{ id: string; title: string }>>('GET', `/api/store-products/${ctx.store!.id}?pageSize=100`)).result.items;
  const title = new Map(products.map((p) => [p.id, p.title]));

  const jobId = h('input', { name: 'jobId', required: true, pattern: '[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}', placeholder: 'the id answered when the import started', class: 'mono' });
  const look = h('button', { type: 'submit', class: 'primary' }, 'Show progress');
  const jobForm = h(
    'form',
    { class: 'row', onsubmit: (ev: Event) => (ev.preventDefault(), void act(look, async () => {
      const id = jobId.value.trim().toLowerCase();
      jobs.set(id, (await api<ImportJob>('GET', `${base}/imports/${id}`)).result);
      await render();
    })) },
    field('Import job id', jobId),
    h('div', { class: 'actions' }, look),
  );
  const refresh: HTMLButtonElement = h('button', { type: 'button', class: 'secondary', onclick: () => void act(refresh, render) }, 'Refresh');
  const jobRows = [...jobs.values()].map((j) =>
    h(
      'tr',
      {},
      h('td', { class: 'mono' }, j.id),
      h('td', {}, j.status),
      h('td', {}, h('progress', { max: j.total || 1, value: j.done + j.failed }), ` ${j.done + j.failed} of ${j.total}`),
      h('td', {}, `${j.done} imported, ${j.failed} failed`, ...j.errors.slice(0, 5).map((e) => h('div', { class: 'message' }, `${e.supplierProductId ?? ''}: ${e.message ?? e.code ?? ''}`))),
      h('td', {}, when(j.createdAt), j.finishedAt ? ` – ${when(j.finishedAt)}` : ''),
    ),
  );
  const pager = (label: string, c: string | null) => h('button', { type: 'button', class: 'secondary', disabled: !c, onclick: () => ((cursor = c ?? undefined), void render()) }, label);
  clear(
    root,
    h('h1', {}, 'Imports and links'),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Import jobs'),
      h('p', {}, 'Large imports run in the background. Enter a job\'s id to follow its progress.'),
      jobForm,
      jobRows.length ? h('table', {}, h('thead', {}, h('tr', {}, ...['Job', 'Status', 'Progress', 'Result', 'Time'].map((t) => h('th', {}, t)))), h('tbody', {}, ...jobRows)) : null,
      jobRows.length ? refresh : null,
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, `Product links (${links.pagination.totalCount})`),
      links.items.length
        ? h(
            'table',
            {},
            h('thead', {}, h('tr', {}, ...['Store product', 'Supplier product', 'Variants', 'Last sync', 'Last error'].map((t) => h('th', {}, t)))),
            h('tbody', {}, ...links.items.map((l) => h('tr', {}, h('td', {}, title.get(l.productId) ?? h('span', { class: 'mono' }, l.productId)), h('td', {}, `${names.get(l.supplierKey) ?? l.supplierKey} · `, h('span', { class: 'mono' }, l.supplierProductId)), h('td', {}, String(l.variants.length)), h('td', {}, when(l.lastSyncAt)), h('td', { class: l.lastSyncError ? 'message' : undefined }, l.lastSyncError ?? 'none')))),
          )
        : h('p', {}, 'No product is linked to a supplier yet.'),
      links.pagination.previousCursor || links.pagination.hasMore ? h('div', { class: 'actions' }, pager('Newer', links.pagination.previousCursor), pager('Older', links.pagination.hasMore ? links.pagination.nextCursor : null)) : null,
    ),
  );
}
