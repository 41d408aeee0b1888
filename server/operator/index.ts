import type { AccountService } from '../identity/accounts';
import { domain, type Platform } from '../platform/domain';
import { operatorRoutes } from './routes';
import { OperatorService } from './service';

/** The operator's API: plans and credit grants (behind the operator token). */
export function operatorDomain(p: Platform, deps: { accounts: AccountService }) {
  const operator = new OperatorService(deps.accounts, p.log);
  return domain({ operator, routes: operatorRoutes(operator) });
}
