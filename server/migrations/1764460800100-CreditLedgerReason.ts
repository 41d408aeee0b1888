import { sqlMigration } from './sql-migration';

/** Why the operator granted credits (an operator grant names its reason in the ledger). */
export const CreditLedgerReason1764460800100 = sqlMigration('CreditLedgerReason1764460800100', {
  up: ['ALTER TABLE credit_ledger ADD COLUMN reason text'],
  down: ['ALTER TABLE credit_ledger DROP COLUMN reason'],
});
