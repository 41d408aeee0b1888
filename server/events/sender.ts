import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { guardedLookup, isPublicAddress } from '../platform/address-guard';

/** What one attempt came to: the receiver's status, or why there was none; a 429's Retry-After in ms. */
export interface SendResult {
  status: number | null;
  error: string | null;
  retryAfterMs: number | null;
  /** For the operator's log only (an errno code, never an address): the merchant sees `error`. */
  cause?: string;
}

/**
 * All the merchant's delivery log says of an attempt without an answer: refused or timed out, never why (an errno, a
 * resolved address, a TLS or DNS detail would map the network behind the service for whoever reads the log).
 */
const SEND_ERRORS = { refused: 'The connection was refused.', timedOut: 'The receiver did not answer in time.' } as const;
export const answered = (status: number) => `The receiver answered ${status}.`;

/**
 * POSTs a delivery with node:http (kept-alive sockets per receiver): a time limit over the whole exchange, no
 * redirect followed, the answer read at most to 64 KiB and dropped. Every connection passes the address guard.
 */
export class Sender {
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(
    private readonly timeoutMs: number,
    private readonly allowPrivate: boolean,
  ) {
    const lookup: net.LookupFunction = guardedLookup(allowPrivate);
    const options = { keepAlive: true, maxSockets: 64, lookup, timeout: timeoutMs };
    this.agents = { http: new http.Agent(options), https: new https.Agent(options) };
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivate && net.isIP(host) && !isPublicAddress(host))
      return Promise.resolve({ status: null, error: SEND_ERRORS.refused, retryAfterMs: null, cause: 'ENOTPUBLIC' });
    const secure = target.protocol === 'https:';
    return new Promise((resolve) => {
      let settled = false;
      const done = (r: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = (secure ? https : http).request(target, {
        method: 'POST',
        agent: secure ? this.agents.https : this.agents.http,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'StoreSuppliers-Webhooks/1', ...headers },
      });
      const timer = setTimeout(() => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), this.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) =>
        done({ status: null, error: err.code === 'ETIMEDOUT' ? SEND_ERRORS.timedOut : SEND_ERRORS.refused, retryAfterMs: null, cause: err.code ?? 'unknown' }),
      );
      req.on('response', (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 64 * 1024) res.destroy();
        });
        const finish = () =>
          done({ status: res.statusCode ?? null, error: null, retryAfterMs: res.statusCode === 429 ? retryAfter(res.headers['retry-after']) : null });
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      req.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

function retryAfter(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  const seconds = /^\d+$/.test(v) ? Number(v) : (Date.parse(v) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
}
