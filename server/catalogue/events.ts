import { type EventRenderer, type OutboxEvent, snapshotOf } from '../events';
import type { ImportService } from './imports';
import type { LinkService } from './links';
import { type LinkRow, linkOf } from './sql/links';

/** A link row as its event keeps it (JSON, ./sql/link-sync.ts `setSyncResults`): its times as text, back to dates. */
type LinkSnapshot = Omit<LinkRow, 'last_sync_at' | 'created_at' | 'updated_at'> & { last_sync_at: string | null; created_at: string; updated_at: string };
const linkOfSnapshot = (e: OutboxEvent) => {
  const r = snapshotOf<LinkSnapshot>(e);
  return linkOf({
    ...r,
    last_sync_at: r.last_sync_at === null ? null : new Date(r.last_sync_at),
    created_at: new Date(r.created_at),
    updated_at: new Date(r.updated_at),
  });
};

/** The catalogue's events' data: the import job and the product link as their routes answer them. */
export function catalogueEventRenderers(imports: ImportService, links: LinkService): Record<string, EventRenderer> {
  return {
    // A finished job no longer changes: read as it is now, with its counts and errors.
    importJob: {
      permission: 'suppliers.import',
      render: (events) => Promise.all(events.map((e) => imports.getJob(e.storeId, String(e.snapshot.id), null).catch(() => null))),
    },
    productLink: { permission: 'suppliers.view', render: (events) => links.views(events.map(linkOfSnapshot)) },
  };
}
