// Every migration, in the order they run (by their timestamps); the data source takes this list.
import { Foundation1763769600000 } from './1763769600000-Foundation';
import { SupplierConnections1763856000000 } from './1763856000000-SupplierConnections';
import { Catalog1763942400000 } from './1763942400000-Catalog';
import { Orders1764028800000 } from './1764028800000-Orders';
import { RegisteredNotificationAddress1764115200000 } from './1764115200000-RegisteredNotificationAddress';
import { SupplierAccountKey1764201600180 } from './1764201600180-SupplierAccountKey';
import { ReadBackAskedAt1764201600181 } from './1764201600181-ReadBackAskedAt';
import { UnlinkDisconnected1764201600182 } from './1764201600182-UnlinkDisconnected';
import { DispatchSteps1764288000000 } from './1764288000000-DispatchSteps';
import { PartNeedsAttention1764288000001 } from './1764288000001-PartNeedsAttention';
import { StoreOrderFromParts1764288000002 } from './1764288000002-StoreOrderFromParts';
import { SupplierCallRates1764288000003 } from './1764288000003-SupplierCallRates';
import { ListCounts1764288000010 } from './1764288000010-ListCounts';
import { ImportJobCredit1764374400000 } from './1764374400000-ImportJobCredit';
import { RenameRegisteredWebhookUrl1764374400001 } from './1764374400001-RenameRegisteredWebhookUrl';
import { CreditLedgerReason1764460800100 } from './1764460800100-CreditLedgerReason';
import { PaymentProviders1764460800110 } from './1764460800110-PaymentProviders';
import { PaymentEventSource1764460800111 } from './1764460800111-PaymentEventSource';
import { OrderMarkedPaid1764460800112 } from './1764460800112-OrderMarkedPaid';
import { SupplierOrderNumbers1764460800250 } from './1764460800250-SupplierOrderNumbers';
import { AutomationShippingMethod1764460800251 } from './1764460800251-AutomationShippingMethod';
import { SupplierOrderCountSlots1764460800260 } from './1764460800260-SupplierOrderCountSlots';
import { StoreOrderCountSlots1764460800261 } from './1764460800261-StoreOrderCountSlots';
import { PaymentProviderCheckout1764460800270 } from './1764460800270-PaymentProviderCheckout';
import { EventOutbox1764547200000 } from './1764547200000-EventOutbox';
import { EventSubscriptions1764547200001 } from './1764547200001-EventSubscriptions';
import { EventDeliveries1764547200002 } from './1764547200002-EventDeliveries';
import { EventOutboxNotify1764547200003 } from './1764547200003-EventOutboxNotify';
import { EventTriggers1764547200004 } from './1764547200004-EventTriggers';
import { SignInAddress1764633600310 } from './1764633600310-SignInAddress';
import { SignInOpenedBy1764633600311 } from './1764633600311-SignInOpenedBy';
import { SignInBrowserDigest1764633600312 } from './1764633600312-SignInBrowserDigest';
import { EventSubscriptionOwner1764633600370 } from './1764633600370-EventSubscriptionOwner';
import { RateLimits1764633600371 } from './1764633600371-RateLimits';
import { CaptureThroughProvider1764633600500 } from './1764633600500-CaptureThroughProvider';
import { LookupKeys1764633600700 } from './1764633600700-LookupKeys';
import { OrderItemProductTitle1764720000320 } from './1764720000320-OrderItemProductTitle';

export const MIGRATIONS = [
  Foundation1763769600000,
  SupplierConnections1763856000000,
  Catalog1763942400000,
  Orders1764028800000,
  RegisteredNotificationAddress1764115200000,
  SupplierAccountKey1764201600180,
  ReadBackAskedAt1764201600181,
  UnlinkDisconnected1764201600182,
  DispatchSteps1764288000000,
  PartNeedsAttention1764288000001,
  StoreOrderFromParts1764288000002,
  SupplierCallRates1764288000003,
  ListCounts1764288000010,
  ImportJobCredit1764374400000,
  RenameRegisteredWebhookUrl1764374400001,
  CreditLedgerReason1764460800100,
  PaymentProviders1764460800110,
  PaymentEventSource1764460800111,
  OrderMarkedPaid1764460800112,
  SupplierOrderNumbers1764460800250,
  AutomationShippingMethod1764460800251,
  SupplierOrderCountSlots1764460800260,
  StoreOrderCountSlots1764460800261,
  PaymentProviderCheckout1764460800270,
  EventOutbox1764547200000,
  EventSubscriptions1764547200001,
  EventDeliveries1764547200002,
  EventOutboxNotify1764547200003,
  EventTriggers1764547200004,
  SignInAddress1764633600310,
  SignInOpenedBy1764633600311,
  SignInBrowserDigest1764633600312,
  EventSubscriptionOwner1764633600370,
  RateLimits1764633600371,
  CaptureThroughProvider1764633600500,
  LookupKeys1764633600700,
  OrderItemProductTitle1764720000320,
];
