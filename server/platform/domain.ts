import type { DataSource } from 'typeorm';
import type { Config } from './config';
import type { Secrets } from './crypto';
import type { Boss } from './jobs';
import type { Logger } from './logger';
import type { Cursors } from './pagination';
import type { AnyRoute } from './http/route';

/** What every domain is built from: the process's configuration, database, job queue and shared plumbing. */
export interface Platform {
  config: Config;
  db: DataSource;
  /** The database's address (the embedded one's when DATABASE_URL is unset), for connections of their own (LISTEN). */
  databaseUrl: string;
  log: Logger;
  boss: Boss;
  secrets: Secrets;
  cursors: Cursors;
}

/** What a worker started that must stop with the process (given the time it may take). */
export type StopWork = (timeoutMs: number) => Promise<void>;

/**
 * One domain as the process assembles it (its `index.ts` builds it from the platform and the domains it
 * needs): its routes, for the one route table, and in a worker process its job handlers and schedules. Its
 * queues are declared in its `queues.ts` and created at start (`QUEUES` in server/workers.ts).
 */
export interface Domain {
  routes: AnyRoute[];
  /** Worker role: registers the domain's handlers and schedules; answers how to stop what it runs itself. */
  work?(boss: Boss): Promise<StopWork | void>;
  /** Run by the hourly housekeeping job: clears what the domain keeps only for a while; answers what went. */
  housekeeping?(): Promise<Record<string, number>>;
}

/** A domain with its services beside the parts every domain has: checked against Domain, typed as written. */
export const domain = <T extends Domain>(d: T): T => d;
