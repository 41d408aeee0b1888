import type { Creator } from '../identity/permissions';
import type { MemberAccess } from '../identity/owner-access';
import type { ImportJob, ImportJobItem } from './types';
import type { ImportJobListRow } from './sql/imports';

// An import job as the API shows it (its progress counted from its items), and the authority it runs on.

export interface ImportJobSummary {
  id: string;
  connectionId: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  total: number;
  done: number;
  failed: number;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export function importJobSummary(r: ImportJobListRow): ImportJobSummary {
  return {
    id: r.id,
    connectionId: r.connection_id,
    status: r.status,
    total: Number(r.total),
    done: Number(r.done),
    failed: Number(r.failed),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
  };
}

/** One job with its items' outcomes: what it made and why the others failed. */
export function importJobView(job: ImportJob, items: ImportJobItem[]) {
  return {
    id: job.id,
    connectionId: job.connectionId,
    status: job.status,
    total: job.total,
    done: items.filter((i) => i.status === 'done').length,
    failed: items.filter((i) => i.status === 'failed').length,
    errors: items
      .filter((i) => i.status === 'failed')
      .map((i) => ({ supplierProductId: i.supplierProductId, code: i.errorCode ?? 'failed', message: i.errorMessage ?? '' })),
    createdProductIds: items.filter((i) => i.productId).map((i) => i.productId!),
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    finishedAt: job.finishedAt ? job.finishedAt.toISOString() : null,
  };
}

/**
 * A job imports on the authority of the member who started it, checked again before every batch: they must still
 * hold suppliers.import on the store, and the owner's plan must still include dropshipping. Their key being revoked
 * does not stop it (the spec: a revoked key's earlier scheduled work is unaffected). Answers why it must stop, or null.
 */
export async function importAuthorityEnded(memberAccess: MemberAccess, storeId: string, creator: Creator): Promise<string | null> {
  const access = await memberAccess(storeId, creator.createdByAccountId, null);
  if (!access || !access.permissions.has('suppliers.import')) return 'The member who started the import may no longer import products into this store.';
  if (!access.dropshipping) return "The store owner's plan no longer includes dropshipping.";
  return null;
}
