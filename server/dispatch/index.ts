import type { DataSource } from 'typeorm';
import type { Boss } from '../platform/jobs';
import type { ListenFeed } from '../platform/listen';
import type { Logger } from '../platform/logger';
import type { SupplierGateway } from '../connections/gateway';
import type { SupplierRegistry } from '../suppliers/registry';
import type { OrderService } from '../orders/service';
import { DispatchCommands } from './commands';
import { DispatchJob } from './job';
import { DispatchQueue } from './queues';
import { SupplierOrderRecords } from './records';
import { DispatchSubscriptions } from './subscriptions';
import { DispatchSweeper } from './sweeper';
import { SupplierOrderWaiter } from './waiter';

export interface DispatchConfig {
  retryLimit: number;
  retryBaseSeconds: number;
  waitMs: number;
  sweepIntervalMs: number;
  sweepStaleSeconds: number;
}

/** The dispatch domain, assembled: commands for routes, the job for workers, the sweeper, the order-event subscriber. */
export function createDispatch(deps: { db: DataSource; gateway: SupplierGateway; registry: SupplierRegistry; orders: OrderService; boss: () => Boss; feed: ListenFeed; log: Logger; config: DispatchConfig }) {
  const records = new SupplierOrderRecords(deps.db);
  const queue = new DispatchQueue(deps.boss, deps.db);
  const waiter = new SupplierOrderWaiter(records, deps.feed, deps.config.waitMs);
  const commands = new DispatchCommands(records, queue, waiter, deps.orders);
  const job = new DispatchJob(records, deps.gateway, deps.registry, deps.orders, { retryLimit: deps.config.retryLimit, retryBaseSeconds: deps.config.retryBaseSeconds }, deps.log);
  const sweeper = new DispatchSweeper(records, queue, { intervalMs: deps.config.sweepIntervalMs, staleSeconds: deps.config.sweepStaleSeconds }, deps.log);
  const subscriptions = new DispatchSubscriptions(deps.orders, records, commands, queue);
  return { records, queue, waiter, commands, job, sweeper, subscriptions };
}
export type Dispatch = ReturnType<typeof createDispatch>;
