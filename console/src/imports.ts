/** The store's import jobs with their progress, newest first; a running job is followed until it finishes. */
import { api, qs } from './api.js';
import { clear, h } from './dom.js';
import { when } from './format.js';
import type { Ctx, Page } from './types.js';

interface ImportJob {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  total: number;
  done: number;
  failed: number;
  createdAt: string;
  finishedAt: string | null;
  errors?: Array<{ supplierProductId: string; code: string; message: string }>;
}

const STATUS = { queued: 'Waiting to start', running: 'Importing', completed: 'Finished', failed: 'Stopped' };
const view = { cursor: undefined as string | undefined, open: null as string | null };

/**
 * The section draws itself again every 2 s while a job on it is still going (and the section is on the page); when a
 * job it saw going has finished, `finished` draws the whole page again (its new links).
 */
export function importJobsSection(ctx: Ctx, finished: () => Promise<void>): HTMLElement {
  const base = `/api/store-suppliers/${ctx.store!.id}`;
  const section = h('section', { class: 'card', id: 'import-jobs' }, h('h2', {}, 'Import jobs'), h('p', {}, 'Reading…'));
  const going = new Set<string>();
  const draw = async (): Promise<void> => {
    const page = (await api<Page<ImportJob>>('GET', `${base}/imports${qs({ pageSize: 5, cursor: view.cursor })}`)).result;
    if (page.items.some((j) => going.has(j.id) && (j.status === 'completed' || j.status === 'failed')) && section.isConnected) return finished();
    const open = view.open && page.items.some((j) => j.id === view.open) ? (await api<ImportJob>('GET', `${base}/imports/${view.open}`)).result : null;
    const pager = (label: string, c: string | null) =>
      h('button', { type: 'button', class: 'secondary', disabled: !c, onclick: () => ((view.cursor = c ?? undefined), void draw()) }, label);
    const rows = page.items.flatMap((j) => {
      const toggle = h(
        'button',
        { type: 'button', class: 'link', onclick: () => ((view.open = view.open === j.id ? null : j.id), void draw()) },
        view.open === j.id ? 'Hide' : 'Details',
      );
      const row = h(
        'tr',
        { 'data-import-job': j.id, 'data-status': j.status },
        h('td', {}, when(j.createdAt)),
        h('td', {}, h('span', { class: `badge ${j.failed ? 'bad' : j.status === 'completed' ? 'ok' : ''}` }, STATUS[j.status])),
        h('td', {}, h('progress', { max: j.total || 1, value: j.done + j.failed }), ` ${j.done + j.failed} of ${j.total}`),
        h('td', {}, `${j.done} imported${j.failed ? `, ${j.failed} not imported` : ''}`),
        h('td', {}, j.finishedAt ? when(j.finishedAt) : '—'),
        h('td', {}, toggle),
      );
      if (!open || open.id !== j.id) return [row];
      const why = (open.errors ?? []).map((e) => h('li', {}, `${e.supplierProductId}: ${e.message} `, h('small', {}, e.code)));
      return [row, h('tr', { class: 'details' }, h('td', { colspan: 6 }, why.length ? h('ul', {}, ...why) : h('p', {}, 'Every product so far was imported.')))];
    });
    clear(
      section,
      h('h2', {}, `Import jobs (${page.pagination.totalCount})`),
      h('p', {}, 'Imports of more than 50 products run in the background; each product is imported (and charged) on its own.'),
      rows.length
        ? h(
            'table',
            {},
            h('thead', {}, h('tr', {}, ...['Started', 'Status', 'Progress', 'Result', 'Finished', ''].map((t) => h('th', {}, t)))),
            h('tbody', {}, ...rows),
          )
        : h('p', {}, 'No import job yet.'),
      h(
        'div',
        { class: 'actions' },
        pager('Newer', page.pagination.previousCursor),
        pager('Older', page.pagination.hasMore ? page.pagination.nextCursor : null),
        h('button', { type: 'button', class: 'secondary', onclick: () => void draw() }, 'Read again'),
      ),
    );
    for (const j of page.items) if (j.status === 'queued' || j.status === 'running') going.add(j.id);
    if (going.size) setTimeout(() => section.isConnected && void draw().catch(() => undefined), 2000);
  };
  void draw().catch((err: Error) => clear(section, h('h2', {}, 'Import jobs'), h('p', { class: 'notice error' }, err.message)));
  return section;
}
