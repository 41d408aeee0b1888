import type { AccountService } from '../identity/accounts';
import { accountView, AccountView } from '../identity/accounts';
import type { Plan } from '../identity/types';
import { errors } from '../platform/errors';
import type { Logger } from '../platform/logger';

/**
 * What only the operator of the service does to an account: change its plan, grant credits (with a reason
 * kept in the ledger). Reached through the operator API (./routes) and the CLI (server/cli.ts), never
 * through a merchant's route.
 */
export class OperatorService {
  constructor(
    private readonly accounts: AccountService,
    private readonly log: Logger,
  ) {}

  async findByEmail(email: string): Promise<AccountView> {
    const account = await this.accounts.findByEmail(email);
    if (!account) throw errors.notFound('The account');
    return accountView(account);
  }

  async setPlan(accountId: string, plan: Plan): Promise<AccountView> {
    const before = await this.accounts.get(accountId);
    const after = await this.accounts.changePlan(accountId, plan);
    this.log.info({ accountId, from: before.plan, to: plan }, 'operator changed plan');
    return accountView(after);
  }

  async grantCredits(accountId: string, amount: number, reason: string, requestId: string | null): Promise<AccountView> {
    await this.accounts.get(accountId);
    const after = await this.accounts.grantCredits(accountId, amount, reason, requestId);
    this.log.info({ accountId, amount }, 'operator granted credits');
    return accountView(after);
  }
}
