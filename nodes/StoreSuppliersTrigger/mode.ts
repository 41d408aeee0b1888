import type { IHookFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

export type TriggerMode = 'webhook' | 'polling';

/** The trigger's mode; a version 1 node saved before webhook mode existed has none and polls. */
export function modeOf(ctx: IHookFunctions | IPollFunctions | IWebhookFunctions): TriggerMode {
	const fallback = ctx.getNode().typeVersion >= 1.1 ? 'webhook' : 'polling';
	return ctx.getNodeParameter('mode', fallback) === 'polling' ? 'polling' : 'webhook';
}
