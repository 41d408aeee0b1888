import type { OrderPayments } from '../orders/payments';
import type { OrderService } from '../orders/service';
import { domain, type Platform } from '../platform/domain';
import type { SealedValues } from '../platform/sealed';
import { PaymentProviders } from './providers';
import { paymentRoutes } from './routes';
import { PaymentNotifications } from './service';
import { replaceSealedSecret, sealedSecrets } from './sql';

/** The secret each store's payment provider signs its notifications with. */
export const PAYMENT_SEALED: SealedValues[] = [{ name: 'paymentProviderSecrets', list: sealedSecrets, replace: replaceSealedSecret }];

/** Each store's payment provider and the signed payment events it sends, which the orders domain records. */
export function paymentsDomain(p: Platform, deps: { orders: OrderService; orderPayments: OrderPayments }) {
  const providers = new PaymentProviders(p.db, p.secrets);
  const notifications = new PaymentNotifications(providers, deps.orders, deps.orderPayments, p.log);
  return domain({ providers, notifications, routes: paymentRoutes(providers, notifications, () => p.config.publicBaseUrl) });
}
