import type { EventSender } from './sender';
import type { EventType, Merchant, Payment, PaymentsState } from './state';

/** What the provider's route modules share for one running provider. */
export interface Payments {
  state: PaymentsState;
  sender: EventSender;
  /** Mount /control/* (fault injection, held deliveries, the provider's records); off unless asked. */
  control: boolean;
  /** Records a change of the payment (a charge in its captures) and sends its event; answers the event's id. */
  emit(merchant: Merchant, payment: Payment, type: EventType, idempotencyKey?: string | null): string;
}
