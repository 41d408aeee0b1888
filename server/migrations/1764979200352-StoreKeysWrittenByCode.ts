import type { MigrationInterface, QueryRunner } from 'typeorm';
import { STORE_CHILDREN, dropFillTrigger, fillTrigger } from './store-keys';

/**
 * The fill triggers of StoreKeysExpand go: every writer of this release sends `store_id` itself (Citus could not run
 * a trigger that reads another table). After the contract step, so no process of the previous release writes.
 */
export class StoreKeysWrittenByCode1764979200352 implements MigrationInterface {
  name = 'StoreKeysWrittenByCode1764979200352';

  async up(q: QueryRunner): Promise<void> {
    for (const c of STORE_CHILDREN) for (const sql of dropFillTrigger(c)) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const c of STORE_CHILDREN) for (const sql of fillTrigger(c)) await q.query(sql);
  }
}
