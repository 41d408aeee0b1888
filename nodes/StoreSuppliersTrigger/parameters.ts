import type { IHookFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

type TriggerContext = IHookFunctions | IPollFunctions | IWebhookFunctions;

export type TriggerMode = 'webhook' | 'polling';

/** The trigger's mode; a version 1 node saved before webhook mode existed has none and polls. */
export function modeOf(ctx: TriggerContext): TriggerMode {
  const fallback = ctx.getNode().typeVersion >= 1.1 ? 'webhook' : 'polling';
  return ctx.getNodeParameter('mode', fallback) === 'polling' ? 'polling' : 'webhook';
}

/** The store the trigger watches. */
export function storeOf(ctx: TriggerContext): string {
  return String(ctx.getNodeParameter('store', '', { extractValue: true }) ?? '').trim();
}
