import type { IPollFunctions, IWebhookFunctions, INodeExecutionData } from 'n8n-workflow';

/**
 * A test event on its way from the webhook to the run it starts. n8n runs a node that has a poll method
 * through that method in manual mode even when a test webhook started the run, and a poll cannot see
 * the webhook's items: the webhook leaves them here and the run's poll takes them. Both happen in the
 * process that received the delivery (n8n runs a test webhook's execution where it received it). An
 * event no run takes is dropped after a minute.
 */
const HOLD_MS = 60_000;
const held = new Map<string, Array<{ until: number; items: INodeExecutionData[][] }>>();

type Ctx = IPollFunctions | IWebhookFunctions;
const keyOf = (ctx: Ctx) => JSON.stringify([ctx.getWorkflow().id ?? '', ctx.getNode().name]);

function dropExpired(now: number): void {
  for (const [key, list] of held) {
    const live = list.filter((e) => e.until > now);
    if (live.length) held.set(key, live);
    else held.delete(key);
  }
}

/** Called by the webhook for a delivery to the test URL. */
export function holdTestEvent(ctx: IWebhookFunctions, items: INodeExecutionData[][]): void {
  const now = Date.now();
  dropExpired(now);
  const key = keyOf(ctx);
  held.set(key, [...(held.get(key) ?? []), { until: now + HOLD_MS, items }]);
}

/** Called by the poll of a manual run in webhook mode: the oldest event held for this node, once. */
export function takeTestEvent(ctx: IPollFunctions): INodeExecutionData[][] | null {
  dropExpired(Date.now());
  const key = keyOf(ctx);
  const [first, ...rest] = held.get(key) ?? [];
  if (rest.length) held.set(key, rest);
  else held.delete(key);
  return first?.items ?? null;
}
