/**
 * CJ calls as the adapter makes them: each in its turn of the connection's rate, with the account's access token
 * (obtained and renewed by session.ts); a token CJ refuses is renewed once, a call refused for too many requests
 * per second is made again in a later turn. Answers only success; every failure leaves as a SupplierError.
 */
import type { SupplierCallContext } from '../adapter';
import { SupplierError } from '../errors';
import { ShapeError } from '../http';
import { CjAnswer, CjCall, CjHttp, failureOf, FailureContext, QPS_CODE, TOKEN_REJECTED_CODES } from './http';
import { readTokens } from './readers';
import { requestsPerSecond, SPACING_MARGIN_MS, TOKEN_SHAPE, TokenKeeper, Tokens } from './session';

/** A call refused for too many requests per second is tried again this often, each in its own turn. */
const QPS_RETRIES = 2;

/** The least time between two calls of one account: CJ allows 1 to 6 requests a second by its level. */
export function callSpacingMs(settings: Record<string, unknown>): number {
  return Math.ceil(1000 / requestsPerSecond(settings)) + SPACING_MARGIN_MS;
}

export type CjRequest = Omit<CjCall, 'timeoutMs' | 'secrets' | 'token'>;

export class CjClient {
  private readonly http: CjHttp;
  readonly tokens: TokenKeeper;

  constructor(baseUrl: string, opts: { exchangeIntervalMs: number; refreshesPerMinute: number }) {
    this.http = new CjHttp(baseUrl);
    this.tokens = new TokenKeeper({ exchange: (ctx, apiKey) => this.exchange(ctx, apiKey), refresh: (ctx, current) => this.refresh(ctx, current) }, opts);
  }

  apiKey(ctx: SupplierCallContext): string {
    const key = ctx.credentials.apiKey;
    // Checked here so a bad value never reaches a body (or a message).
    if (typeof key !== 'string' || !TOKEN_SHAPE.test(key)) throw new SupplierError('credentialsRejected', 'The connection has no usable CJ API key');
    return key;
  }

  private secrets(ctx: SupplierCallContext, tokens?: Tokens): string[] {
    const values = Object.values(ctx.credentials).filter((v): v is string => typeof v === 'string' && v !== '');
    if (tokens) values.push(tokens.accessToken, tokens.refreshToken, tokens.openId);
    return values;
  }

  /** One turn of the connection's rate limit (kept by the service, see the adapter's `limits`), then the request. */
  private async send(ctx: SupplierCallContext, call: Omit<CjCall, 'timeoutMs' | 'secrets'>, tokens?: Tokens): Promise<CjAnswer> {
    await ctx.pace?.();
    return this.http.send({ ...call, timeoutMs: ctx.timeoutMs, secrets: this.secrets(ctx, tokens) });
  }

  /** An authenticated call; answers only success. */
  async request(ctx: SupplierCallContext, call: CjRequest, context: FailureContext, subject?: Record<string, string>): Promise<CjAnswer> {
    const apiKey = this.apiKey(ctx);
    let tokens = await this.tokens.get(ctx, apiKey);
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.send(ctx, { ...call, token: tokens.accessToken }, tokens);
      if (answer.code === 200) return answer;
      if (TOKEN_REJECTED_CODES.has(answer.code) && !renewed) {
        renewed = true;
        tokens = await this.tokens.get(ctx, apiKey, tokens.accessToken);
        continue;
      }
      if (answer.code === QPS_CODE && attempt < QPS_RETRIES) {
        // CJ counted more calls than the spacing allows (another client on the account): wait one more turn.
        await new Promise((r) => setTimeout(r, callSpacingMs(ctx.settings)));
        continue;
      }
      throw failureOf(answer, context, subject);
    }
  }

  /** Reads an answer; a wrong shape is CJ answering what it could not have meant (`unavailable`). */
  read<T>(answer: CjAnswer, reader: (data: unknown, answer: CjAnswer) => T): T {
    try {
      return reader(answer.data, answer);
    } catch (err) {
      if (err instanceof SupplierError) throw err;
      const what = err instanceof ShapeError ? err.message : 'unreadable body';
      throw new SupplierError('unavailable', `CJ answered ${answer.label} with an unexpected body (${what})`);
    }
  }

  private async exchange(ctx: SupplierCallContext, apiKey: string): Promise<Tokens> {
    const answer = await this.send(ctx, { method: 'POST', path: '/authentication/getAccessToken', body: { apiKey } });
    if (answer.code !== 200) throw failureOf(answer, 'auth');
    return this.read(answer, (data, a) => readTokens(data, a));
  }

  private async refresh(ctx: SupplierCallContext, current: Tokens): Promise<Tokens> {
    const answer = await this.send(ctx, { method: 'POST', path: '/authentication/refreshAccessToken', body: { refreshToken: current.refreshToken } }, current);
    if (answer.code !== 200) throw failureOf(answer, 'auth');
    return this.read(answer, (data, a) => readTokens(data, a, current.openId));
  }
}
