import type { Api, ImportJob, RequestOptions } from '../types.js';
import type { Transport } from '../transport.js';

export type ImportResult = Api.ImportSupplierProducts['result'];

/** True when `run` answered a background job to poll with `imports.get` rather than the imported products. */
export function isImportJob(answer: ImportResult | ImportJob): answer is ImportJob {
  return typeof (answer as ImportJob).status === 'string' && typeof (answer as ImportJob).total === 'number';
}

/** Importing supplier products into the store. */
export class Imports {
  constructor(private readonly t: Transport) {}

  /** Prices the chosen products with the price rule and names duplicates; nothing is charged. */
  async preview(storeId: string, id: string, body: Api.PreviewImport['body'], options?: RequestOptions): Promise<Api.PreviewImport['result']> {
    return (await this.t.call('previewImport', { params: { storeId, id }, body, retrySafe: true }, options)).result;
  }

  /** Imports up to 50 products; a large import answers a job (see `isImportJob`) to poll with `get`. */
  async run(storeId: string, id: string, body: Api.ImportSupplierProducts['body'], options?: RequestOptions): Promise<ImportResult | ImportJob> {
    return (await this.t.call('importSupplierProducts', { params: { storeId, id }, body }, options)).result as ImportResult | ImportJob;
  }

  /** The store's import jobs, newest first, one page (follow `pagination.nextCursor` with the same query). */
  async list(storeId: string, query: Api.ListImportJobs['query'] = {}, options?: RequestOptions): Promise<Api.ListImportJobs['result']> {
    return (await this.t.call('listImportJobs', { params: { storeId }, query }, options)).result;
  }

  /** Progress of a background import. */
  async get(storeId: string, jobId: string, options?: RequestOptions): Promise<ImportJob> {
    return (await this.t.call('getImportJob', { params: { storeId, jobId } }, options)).result;
  }
}
