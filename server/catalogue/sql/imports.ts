import { outboxStep } from '../../events';
import { affected, type Queryable, rows } from '../../platform/db';
import { type KeysetListStatement, storeScope } from '../../platform/pagination';
import type { PriceRule } from '../price-rule';
import type { ImportJob, ImportJobItem, ImportJobStatus, SyncSwitches } from '../types';

// Import jobs and their items.

export interface ImportJobListRow {
  id: string;
  connection_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  total: number;
  done: number;
  failed: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** A store's import jobs with their progress. Import jobs are few per store, so their rows are counted (no kept count). */
export function importJobList(f: { storeId: string; ownKeyId: string | null }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  return {
    list: 'importJobs',
    binding: f,
    table: 'import_jobs',
    alias: 'j',
    filters,
    columns: `j.*,
      (SELECT count(*) FROM import_job_items i WHERE i.store_id = j.store_id AND i.job_id = j.id AND i.status = 'done')::int AS done,
      (SELECT count(*) FROM import_job_items i WHERE i.store_id = j.store_id AND i.job_id = j.id AND i.status = 'failed')::int AS failed`,
    counts: null,
  };
}

/** Serialises imports of one supplier product into one store until the transaction ends. */
export async function lockImportOf(tx: Queryable, key: string): Promise<void> {
  await rows(tx, 'SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

/** An import job as its statements name it: by its store and id. */
export interface JobRef {
  storeId: string;
  id: string;
}

export async function failPendingItems(db: Queryable, job: JobRef, code: string, message: string): Promise<void> {
  await affected(
    db,
    `UPDATE import_job_items SET status = 'failed', error_code = $3, error_message = $4 WHERE store_id = $1 AND job_id = $2 AND status = 'pending'`,
    [job.storeId, job.id, code, message],
  );
}

export async function itemDone(tx: Queryable, job: JobRef, position: number, productId: string): Promise<void> {
  await affected(tx, `UPDATE import_job_items SET status = 'done', product_id = $4 WHERE store_id = $1 AND job_id = $2 AND position = $3`, [
    job.storeId,
    job.id,
    position,
    productId,
  ]);
}

export async function itemFailed(db: Queryable, job: JobRef, position: number, code: string, message: string): Promise<void> {
  await affected(
    db,
    `UPDATE import_job_items SET status = 'failed', error_code = $4, error_message = $5 WHERE store_id = $1 AND job_id = $2 AND position = $3 AND status = 'pending'`,
    [job.storeId, job.id, position, code, message],
  );
}

interface ImportJobRow {
  id: string;
  store_id: string;
  connection_id: string;
  status: ImportJobStatus;
  price_rule: PriceRule;
  sync: SyncSwitches;
  total: number;
  credit: { action: string; price: number };
  finished_at: Date | null;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date;
  updated_at: Date;
}
const importJobOf = (r: ImportJobRow): ImportJob => ({
  id: r.id,
  storeId: r.store_id,
  connectionId: r.connection_id,
  status: r.status,
  priceRule: r.price_rule,
  sync: r.sync,
  total: r.total,
  credit: r.credit,
  finishedAt: r.finished_at,
  createdByAccountId: r.created_by_account_id,
  createdByKeyId: r.created_by_key_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The job and its pending items, written together. */
export async function insertImportJob(
  tx: Queryable,
  j: Omit<ImportJob, 'createdAt' | 'updatedAt' | 'finishedAt' | 'status'>,
  items: Array<Pick<ImportJobItem, 'supplierProductId' | 'variantIds'>>,
): Promise<ImportJob> {
  const [r] = await rows<ImportJobRow>(
    tx,
    `INSERT INTO import_jobs (id, store_id, connection_id, status, price_rule, sync, total, credit, created_by_account_id, created_by_key_id)
     VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $9) RETURNING *`,
    [
      j.id,
      j.storeId,
      j.connectionId,
      JSON.stringify(j.priceRule),
      JSON.stringify(j.sync),
      j.total,
      JSON.stringify(j.credit),
      j.createdByAccountId,
      j.createdByKeyId,
    ],
  );
  // Each item's variant choice is a list (or none): as jsonb, since unnest would flatten a text[][].
  await affected(
    tx,
    `INSERT INTO import_job_items (store_id, job_id, position, supplier_product_id, variant_ids, status)
     SELECT $4, $1, u.position - 1, u.product, CASE WHEN jsonb_typeof(u.variants) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(u.variants)) END, 'pending'
       FROM unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS u(product, variants, position)`,
    [j.id, items.map((i) => i.supplierProductId), items.map((i) => JSON.stringify(i.variantIds)), j.storeId],
  );
  return importJobOf(r);
}

export async function importJobInStore(db: Queryable, storeId: string, id: string): Promise<ImportJob | null> {
  const [r] = await rows<ImportJobRow>(db, 'SELECT * FROM import_jobs WHERE id = $1 AND store_id = $2', [id, storeId]);
  return r ? importJobOf(r) : null;
}

/** Moves the job on; a finished job gets its finishing time, and `importJob.finished` is recorded when it finished now. */
export async function setImportJobStatus(db: Queryable, job: JobRef, status: ImportJobStatus): Promise<void> {
  const event = outboxStep({
    from: 'j',
    type: `'importJob.finished'`,
    storeId: 'j.store_id',
    resourceKey: `'importJob:' || j.id`,
    recordKeyId: 'j.created_by_key_id',
    snapshot: `to_jsonb(j) - 'was'`,
    where: `j.status IN ('completed', 'failed') AND j.was IS DISTINCT FROM j.status`,
  });
  await rows(
    db,
    `WITH was AS (SELECT id, status AS was FROM import_jobs WHERE store_id = $3 AND id = $1 FOR UPDATE),
          j AS (UPDATE import_jobs j SET status = $2, finished_at = CASE WHEN $2 IN ('completed', 'failed') THEN now() ELSE j.finished_at END, updated_at = now()
                  FROM was WHERE j.store_id = $3 AND j.id = was.id RETURNING j.*, was.was),
          ev AS (${event})
     SELECT 1`,
    [job.id, status, job.storeId],
  );
}

interface ImportItemRow {
  job_id: string;
  position: number;
  supplier_product_id: string;
  variant_ids: string[] | null;
  status: ImportJobItem['status'];
  product_id: string | null;
  error_code: string | null;
  error_message: string | null;
}
const importItemOf = (r: ImportItemRow): ImportJobItem => ({
  jobId: r.job_id,
  position: r.position,
  supplierProductId: r.supplier_product_id,
  variantIds: r.variant_ids,
  status: r.status,
  productId: r.product_id,
  errorCode: r.error_code,
  errorMessage: r.error_message,
});

/** The job's items in order; `pendingOnly` and `limit`: the next ones still to do. */
export async function importItems(db: Queryable, job: JobRef, opts: { pendingOnly?: boolean; limit?: number } = {}): Promise<ImportJobItem[]> {
  const found = await rows<ImportItemRow>(
    db,
    `SELECT * FROM import_job_items WHERE store_id = $1 AND job_id = $2 AND (NOT $3 OR status = 'pending') ORDER BY position LIMIT $4`,
    [job.storeId, job.id, opts.pendingOnly ?? false, opts.limit ?? null],
  );
  return found.map(importItemOf);
}
