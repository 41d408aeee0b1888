import type { EventRenderer } from '../events';
import type { ImportService } from './imports';
import type { LinkService } from './links';
import { type LinkRow, linkOf } from './sql/links';

/** A link row as its event keeps it (JSON, ./sql/links.ts `setSyncResults`): its timestamps back to dates. */
const linkOfSnapshot = (s: Record<string, unknown>) => {
  const r = s as unknown as Record<string, string | null>;
  const at = (v: string | null) => (v === null ? null : new Date(v));
  return linkOf({ ...(s as unknown as LinkRow), last_sync_at: at(r.last_sync_at), created_at: at(r.created_at)!, updated_at: at(r.updated_at)! });
};

/** The catalogue's events' data: the import job and the product link as their routes answer them. */
export function catalogueEventRenderers(imports: ImportService, links: LinkService): Record<string, EventRenderer> {
  return {
    // A finished job no longer changes: read as it is now, with its counts and errors.
    importJob: {
      permission: 'suppliers.import',
      render: (events) => Promise.all(events.map((e) => imports.getJob(e.storeId, String(e.snapshot.id), null).catch(() => null))),
    },
    productLink: { permission: 'suppliers.view', render: (events) => links.views(events.map((e) => linkOfSnapshot(e.snapshot))) },
  };
}
