import type { IDataObject, IHookFunctions, IWebhookFunctions, IWebhookResponseData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { callRoute, type Route } from '../StoreSuppliers/transport';
import { modeOf, storeOf } from './parameters';
import { verifyDelivery } from './signature';
import { holdTestEvent } from './test-event';
import { optionsOf } from '../StoreSuppliers/actions/options';
import { EVENT_TYPES as EVENT_WORDS, type EventType } from '../StoreSuppliers/vocabulary';

/** The event types a subscription may choose, each named from its type and described as the vocabulary says. */
export const EVENT_TYPES = optionsOf(Object.keys(EVENT_WORDS) as EventType[], (type) => EVENT_WORDS[type].replace(/\.$/, ''));

const BASE = '/api/store-suppliers/{storeId}/event-subscriptions';
export const SUBSCRIPTION_ROUTES = {
  create: { operationId: 'createEventSubscription', method: 'POST', path: BASE, idempotent: true },
  get: { operationId: 'getEventSubscription', method: 'GET', path: `${BASE}/{subscriptionId}` },
  delete: { operationId: 'deleteEventSubscription', method: 'DELETE', path: `${BASE}/{subscriptionId}` },
} satisfies Record<string, Route>;

/** What the trigger keeps in the workflow's static data of the node while its webhook is active. */
export interface WebhookState {
  subscriptionId?: string;
  secret?: string;
  url?: string;
}

const isWebhookMode = (ctx: IHookFunctions | IWebhookFunctions) => modeOf(ctx) === 'webhook';
const chosenTypes = (ctx: IHookFunctions): string[] => {
  const raw = ctx.getNodeParameter('eventTypes', ['supplierOrder.paused']) as string[];
  return raw.length ? [...raw].sort() : ['supplierOrder.paused'];
};

const notFound = (error: unknown) => String((error as { httpCode?: unknown }).httpCode) === '404';

/**
 * The subscription's lifecycle, as n8n calls it on activation and deactivation (polling mode has
 * none). The subscription's id and signing secret stay in the node's static data; a subscription that
 * is gone, or points elsewhere, or no longer has the chosen types, is made again.
 */
export const subscriptionMethods = {
  async checkExists(this: IHookFunctions): Promise<boolean> {
    if (!isWebhookMode(this)) return true;
    const state = this.getWorkflowStaticData('node') as WebhookState;
    if (!state.subscriptionId || !state.secret) return false;
    try {
      const sub = (await callRoute.call(this, SUBSCRIPTION_ROUTES.get, { storeId: storeOf(this), subscriptionId: state.subscriptionId })) as IDataObject;
      const types = ((sub.eventTypes as string[]) ?? []).slice().sort();
      return sub.url === this.getNodeWebhookUrl('default') && sub.enabled !== false && types.join() === chosenTypes(this).join();
    } catch (error) {
      if (notFound(error)) return false;
      throw new NodeApiError(this.getNode(), error as JsonObject); // hands back the transport's own error
    }
  },

  async create(this: IHookFunctions): Promise<boolean> {
    if (!isWebhookMode(this)) return true;
    const state = this.getWorkflowStaticData('node') as WebhookState;
    // A stale subscription goes first; not when the editor listens for a test event: the static data
    // then still names the active workflow's subscription, which must stay.
    if (state.subscriptionId && this.getMode() !== 'manual') await subscriptionMethods.delete.call(this);
    const url = this.getNodeWebhookUrl('default')!;
    const made = (await callRoute.call(
      this,
      SUBSCRIPTION_ROUTES.create,
      { storeId: storeOf(this) },
      { body: { url, eventTypes: chosenTypes(this), description: `n8n: ${this.getWorkflow().name ?? this.getWorkflow().id} / ${this.getNode().name}` } },
    )) as IDataObject;
    Object.assign(state, { subscriptionId: String(made.id), secret: String(made.secret), url });
    return true;
  },

  async delete(this: IHookFunctions): Promise<boolean> {
    const state = this.getWorkflowStaticData('node') as WebhookState;
    if (state.subscriptionId) {
      try {
        await callRoute.call(this, SUBSCRIPTION_ROUTES.delete, { storeId: storeOf(this), subscriptionId: state.subscriptionId });
      } catch (error) {
        if (!notFound(error)) throw new NodeApiError(this.getNode(), error as JsonObject);
      }
    }
    delete state.subscriptionId;
    delete state.secret;
    delete state.url;
    return true;
  },
};

/**
 * One delivery: its Standard Webhooks signature is checked against the subscription's secret on the
 * raw bytes; a delivery that fails is answered 401 and starts nothing. A good one starts the workflow
 * with the event `{ id, type, createdAt, storeId, data }`; a test delivery (the editor listening) is also
 * held for the manual run's poll, which n8n calls in its place (test-event.ts).
 */
export async function receiveEvent(this: IWebhookFunctions): Promise<IWebhookResponseData> {
  const req = this.getRequestObject();
  const res = this.getResponseObject();
  const state = this.getWorkflowStaticData('node') as WebhookState;
  const raw = (req as { rawBody?: Buffer }).rawBody ?? Buffer.from(JSON.stringify(req.body ?? {}));
  const verdict =
    isWebhookMode(this) && state.secret ? verifyDelivery(raw, req.headers, state.secret) : { ok: false as const, reason: 'no active subscription' };
  if (!verdict.ok) {
    res.status(401).json({ error: { code: 'invalidSignature', message: `The delivery was refused: ${verdict.reason}.` } });
    return { noWebhookResponse: true };
  }
  const workflowData = [this.helpers.returnJsonArray([this.getBodyData()])];
  if (this.getMode() === 'manual') holdTestEvent(this, workflowData);
  return { workflowData };
}
