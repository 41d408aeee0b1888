import type { OrderPayments } from '../orders/payments';
import type { OrderService } from '../orders/service';
import { domain, type Platform } from '../platform/domain';
import type { SealedValues } from '../platform/sealed';
import { ShopperCaptures } from './capture';
import { PaymentProviders } from './providers';
import { paymentRoutes } from './routes';
import { PaymentNotifications } from './service';
import { replaceSealedValue, type SealedColumn, sealedValues } from './sql';

const sealedColumn = (name: string, column: SealedColumn): SealedValues => ({ name, list: (db, limit) => sealedValues(db, column, limit), replace: (db, ...v) => replaceSealedValue(db, column, ...v) });
/** The secret each store's payment provider signs its notifications with, and the store's API key there (captures). */
export const PAYMENT_SEALED: SealedValues[] = [sealedColumn('paymentProviderSecrets', 'signing_secret_sealed'), sealedColumn('paymentProviderApiKeys', 'api_key_sealed')];

/**
 * Each store's payment provider, the signed payment events it sends (which the orders domain records), and the
 * captures the service asks of it (promise to sell; dispatch calls them when the supplier accepts).
 */
export function paymentsDomain(p: Platform, deps: { orders: OrderService; orderPayments: OrderPayments }) {
  const providers = new PaymentProviders(p.db, p.secrets);
  const notifications = new PaymentNotifications(providers, deps.orders, deps.orderPayments, p.log);
  // Read when asked: the bundled sandbox provider's address is known only once main started it.
  const captures = new ShopperCaptures(providers, deps.orderPayments, (provider) => (provider === 'sandbox' ? p.config.sandboxPaymentsUrl : ''), p.log);
  return domain({ providers, notifications, captures, routes: paymentRoutes(providers, notifications, () => p.config.publicBaseUrl) });
}
