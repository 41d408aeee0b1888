/**
 * AliExpress calls as the adapter makes them: each business call signed with the connection's access token, in its
 * turn of the connection's rate; ApiCallLimit is a throttle, waited out and made again, then `unavailable`.
 */
import type { SupplierCallContext } from '../adapter';
import { SupplierError } from '../errors';
import { Obj, secretsOf, ShapeError } from '../http';
import { AeContext, CALL_LIMIT, refusalOf } from './codes';
import { AeApp, AeHttp, AeRefusal } from './http';
import { AeTokens, storedTokens } from './tokens';

/** A call refused with ApiCallLimit is made again this many times, each after the ban (1 s) and in its own turn. */
const CALL_LIMIT_RETRIES = 2;

export class AeClient {
  readonly http: AeHttp;

  constructor(
    app: AeApp,
    /** How long an ApiCallLimit ban lasts before the call is made again. */
    private readonly callLimitWaitMs: number,
  ) {
    this.http = new AeHttp(app);
  }

  tokens(ctx: SupplierCallContext): AeTokens {
    const t = storedTokens(ctx.credentials);
    if (!t) throw new SupplierError('credentialsRejected', 'The connection has no usable AliExpress sign-in; sign in to AliExpress again');
    return t;
  }

  /** What no message may carry: the connection's credentials, the app's secret, and `extra`. */
  secrets(ctx: SupplierCallContext, extra: string[] = []): string[] {
    return [...secretsOf(ctx.credentials), this.http.app.appSecret, ...extra];
  }

  /** A business call; answers its body and its text (for ids JSON numbers cannot hold exactly). */
  async callWithText(
    ctx: SupplierCallContext,
    method: string,
    params: Record<string, string>,
    context: AeContext,
    subject?: Record<string, string>,
    refused: (r: AeRefusal) => SupplierError = (r) => refusalOf(r, context, subject),
  ): Promise<{ body: Obj; text: string }> {
    const token = this.tokens(ctx).accessToken;
    for (let attempt = 0; ; attempt++) {
      await ctx.pace?.();
      const answer = await this.http.business(method, params, token, { timeoutMs: ctx.timeoutMs, secrets: this.secrets(ctx) });
      if (answer.ok) return answer;
      const limited = answer.refusal.code === CALL_LIMIT || answer.refusal.subCode === CALL_LIMIT;
      if (limited && attempt < CALL_LIMIT_RETRIES) {
        await new Promise((r) => setTimeout(r, this.callLimitWaitMs));
        continue;
      }
      throw refused(answer.refusal);
    }
  }

  async call(
    ctx: SupplierCallContext,
    method: string,
    params: Record<string, string>,
    context: AeContext,
    subject?: Record<string, string>,
    refused?: (r: AeRefusal) => SupplierError,
  ): Promise<Obj> {
    return (await this.callWithText(ctx, method, params, context, subject, refused)).body;
  }

  /** Reads an answer; a wrong shape is AliExpress answering what it could not have meant (`unavailable`). */
  read<T>(label: string, reader: () => T): T {
    try {
      return reader();
    } catch (err) {
      if (err instanceof SupplierError) throw err;
      throw new SupplierError(
        'unavailable',
        `AliExpress answered ${label} with an unexpected body (${err instanceof ShapeError ? err.message : 'unreadable body'})`,
      );
    }
  }
}
