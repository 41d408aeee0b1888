import type {
  INodeExecutionData,
  INodeProperties,
  INodeType,
  INodeTypeDescription,
  IPollFunctions,
  IWebhookFunctions,
  IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { storeRLC } from '../StoreSuppliers/actions/locator';
import { SHARED_ORDER_FILTERS } from '../StoreSuppliers/actions/supplierOrder/getAll.operation';
import { listSearch, loadOptions } from '../StoreSuppliers/methods';
import { modeOf } from './parameters';
import { pollNeedsReview } from './poll';
import { takeTestEvent } from './test-event';
import { EVENT_TYPES, receiveEvent, subscriptionMethods } from './webhook';

/** The mode picker; its default depends on the node's version (1: polling, as saved before webhook mode). */
const modeProperty = (version: number, fallback: 'webhook' | 'polling'): INodeProperties => ({
  displayName: 'Mode',
  name: 'mode',
  type: 'options',
  options: [
    {
      name: 'Webhook (Instant)',
      value: 'webhook',
      description: 'The service sends each event as it happens; n8n must be reachable from the service',
    },
    {
      name: 'Polling',
      value: 'polling',
      description: 'The trigger asks the service every poll interval; for instances the service cannot reach',
    },
  ],
  default: fallback,
  displayOptions: { show: { '@version': [version] } },
});

/**
 * The node is in polling mode, as an expression over its parameters (with their defaults: a version 1
 * node saved without a mode has `polling`); it must agree with modeOf.
 */
const POLLING = '$parameter["mode"] === "polling"';

/** Polling-mode parameters show only in polling mode. */
const polling = { show: { mode: ['polling'] } };

export class StoreSuppliersTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Store Suppliers Trigger',
    name: 'storeSuppliersTrigger',
    icon: { light: 'file:../StoreSuppliers/storeSuppliers.svg', dark: 'file:../StoreSuppliers/storeSuppliers.dark.svg' },
    group: ['trigger'],
    // 1.1: webhook mode, the default for new nodes; version 1 nodes keep polling.
    version: [1, 1.1],
    defaultVersion: 1.1,
    subtitle: '={{"On " + ($parameter["mode"] === "polling" ? ($parameter["events"] || ["needsReview"]) : ($parameter["eventTypes"] || [])).join(", ")}}',
    description: 'Starts the workflow when a supplier order pauses for review, ships, fails or changes status, and on other store events',
    defaults: { name: 'Store Suppliers Trigger' },
    polling: true,
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'storeSuppliersApi', required: true }],
    webhooks: [
      {
        name: 'default',
        // n8n registers a webhook for each method named here, per node: none in polling mode, so the
        // editor's Test step runs the poll instead of waiting for a test event (and no URL is shown).
        httpMethod: `={{${POLLING} ? "" : "POST"}}`,
        responseMode: 'onReceived',
        path: 'webhook',
        ndvHideUrl: `={{${POLLING}}}`,
      },
    ],
    properties: [
      modeProperty(1.1, 'webhook'),
      modeProperty(1, 'polling'),
      {
        displayName:
          "On activation n8n subscribes this workflow to the chosen events (and unsubscribes on deactivation); every delivery's signature is checked. Each item is the event: its ID, type, createdAt, storeId and data (the resource as the API answers it). The Poll Times setting is unused in this mode.",
        name: 'webhookNotice',
        type: 'notice',
        default: '',
        displayOptions: { show: { mode: ['webhook'] } },
      },
      {
        displayName:
          'Emits each supplier order once per event it reaches, with the event in `event` (once per pause: an order that pauses again after a retry is emitted again)',
        name: 'notice',
        type: 'notice',
        default: '',
        displayOptions: polling,
      },
      storeRLC,
      {
        displayName: 'Event Types',
        name: 'eventTypes',
        type: 'multiOptions',
        required: true,
        options: EVENT_TYPES,
        default: ['supplierOrder.paused'],
        description: 'The store events to start the workflow on',
        displayOptions: { show: { mode: ['webhook'] } },
      },
      {
        displayName: 'Events',
        name: 'events',
        type: 'multiOptions',
        required: true,
        displayOptions: polling,
        options: [
          { name: 'Cancelled', value: 'cancelled', description: 'The supplier order was cancelled' },
          { name: 'Confirmed', value: 'confirmed', description: 'The supplier accepted the order' },
          { name: 'Delivered', value: 'delivered', description: 'The parcel was delivered' },
          { name: 'Failed', value: 'failed', description: 'Sending failed for good' },
          { name: 'Needs Review', value: 'needsReview', description: 'The order stopped and waits for a person (review reason and message)' },
          { name: 'Shipped', value: 'shipped', description: 'The supplier shipped it (carrier and tracking in `shipping`)' },
          { name: 'Submitted', value: 'submitted', description: 'The order was sent to the supplier' },
        ],
        default: ['needsReview'],
        description: 'The supplier order events to start the workflow on',
      },
      {
        displayName: 'On First Activation',
        name: 'firstActivation',
        type: 'options',
        options: [
          {
            name: 'Emit Orders Already There',
            value: 'emitWaiting',
            description: 'The first poll emits every supplier order already in a chosen status',
          },
          {
            name: 'Only Note Orders Already There',
            value: 'baseline',
            description: 'The first poll remembers the orders already in a chosen status without emitting them',
          },
        ],
        default: 'emitWaiting',
        displayOptions: polling,
      },
      {
        displayName: 'Filters',
        name: 'filters',
        type: 'collection',
        placeholder: 'Add Filter',
        default: {},
        displayOptions: polling,
        options: [...SHARED_ORDER_FILTERS],
      },
    ],
  };

  methods = { listSearch, loadOptions };

  webhookMethods = { default: subscriptionMethods };

  async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
    // n8n schedules the poll of a polling node in either mode; in webhook mode it does nothing, except in
    // the manual run a test delivery starts, where n8n calls it in place of passing the event on.
    if (modeOf(this) === 'webhook') return this.getMode() === 'manual' ? takeTestEvent(this) : null;
    return await pollNeedsReview.call(this);
  }

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    return await receiveEvent.call(this);
  }
}
