import { MigrationInterface, QueryRunner } from 'typeorm';

/** Why the operator granted credits (an operator grant names its reason in the ledger). */
export class CreditLedgerReason1764460800100 implements MigrationInterface {
  name = 'CreditLedgerReason1764460800100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE credit_ledger ADD COLUMN reason text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE credit_ledger DROP COLUMN reason');
  }
}
