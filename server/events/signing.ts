import crypto from 'node:crypto';

// Standard Webhooks (standardwebhooks.com): the headers every delivery carries, and its signature. The receiver's
// side is in both clients (`webhooks.verify`, `Webhooks.Verify`) and in the n8n trigger.

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (the HMAC key). */
export function newSecret(): string {
  return PREFIX + crypto.randomBytes(32).toString('base64');
}

/** `v1,<base64 HMAC-SHA256>` over `id.timestamp.body` for each secret, space-separated (old and new while rotating). */
export function signature(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
      return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** The three headers of one attempt; `webhook-id` is the event's id, the same on every attempt. */
export function webhookHeaders(secrets: string[], id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature(secrets, id, timestamp, body) };
}
