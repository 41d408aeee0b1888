import type { AccountService } from '../identity/accounts';
import { domainModule, type Platform } from '../platform/domain';
import { operatorRoutes } from './routes';
import { OperatorService } from './service';

/** The operator's API: plans and credit grants (behind the operator token). It has no table of its own. */
export const operatorModule = domainModule({
  name: 'operator',
  needs: ['identity'],
  provides: ['operator'],
  migrations: [],
  build(p: Platform, deps: { identity: { accounts: AccountService } }) {
    const operator = new OperatorService(deps.identity.accounts, p.log);
    return { operator, routes: operatorRoutes(operator) };
  },
});
