import { PaymentProviders1764460800110 } from '../migrations/1764460800110-PaymentProviders';
import { PaymentProviderCheckout1764460800270 } from '../migrations/1764460800270-PaymentProviderCheckout';
import { CaptureThroughProvider1764633600500 } from '../migrations/1764633600500-CaptureThroughProvider';
import type { OrderPayments, OrderService } from '../orders';
import { domainModule, type Platform } from '../platform/domain';
import { ShopperCaptures } from './capture';
import { ShopperRefunds } from './refunds';
import { PaymentProviders } from './providers';
import { paymentRoutes } from './routes';
import { PaymentNotifications } from './service';
import { PROVIDER_SECRETS } from './sql';

export type { CaptureOutcome } from './capture';

/**
 * Each store's payment provider, the signed payment events it sends (which the orders domain records), and the
 * captures and refunds the service asks of it (promise to sell: dispatch captures when the supplier accepts; a
 * return on the store's side refunds the shopper).
 */
export const paymentsModule = domainModule({
  name: 'payments',
  needs: ['orders'],
  provides: ['providers', 'captures', 'refunds'],
  migrations: [PaymentProviders1764460800110, PaymentProviderCheckout1764460800270, CaptureThroughProvider1764633600500],
  sealed: PROVIDER_SECRETS,
  // The provider's notification address.
  routesFirst: true,
  build(p: Platform, deps: { orders: { orders: OrderService; orderPayments: OrderPayments } }) {
    const providers = new PaymentProviders(p.db, p.secrets);
    const notifications = new PaymentNotifications(providers, deps.orders.orders, deps.orders.orderPayments, p.log);
    // Read when asked: the bundled sandbox provider's address is known only once main started it.
    const apiBaseOf = (provider: string) => (provider === 'sandbox' ? p.config.sandboxPaymentsUrl : '');
    const captures = new ShopperCaptures(providers, deps.orders.orderPayments, apiBaseOf, p.log);
    const refunds = new ShopperRefunds(providers, deps.orders.orderPayments, apiBaseOf, p.log);
    return {
      providers,
      notifications,
      captures,
      refunds,
      routes: paymentRoutes(providers, notifications, () => p.config.publicBaseUrl, refunds, deps.orders.orders),
    };
  },
});
