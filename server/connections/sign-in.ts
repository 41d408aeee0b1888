import type { ApiKeyService } from '../identity/api-keys';
import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Secrets } from '../platform/crypto';
import type { Queryable } from '../platform/db';
import { errors } from '../platform/errors';
import type { Gate } from '../platform/http/gate';
import type { Caller } from '../platform/http/route';
import { supportsSignIn, type ConnectionMode } from '../suppliers/adapter';
import type { SupplierRegistry } from '../suppliers/registry';
import type { SupplierConnection } from './types';
import type { SupplierGateway } from './gateway';
import { orSupplierFailure } from './http-errors';
import type { ConnectionService } from './service';
import { setHealth } from './sql/health';
import * as sql from './sql/sign-in';
import { browserCookie, callbackUri, cookieName, cookieOf, isHttps, signInAddress } from './sign-in-browser';
import { SIGN_IN_OPENED_BY_ANOTHER, SIGN_IN_OPENER_LOST_ACCESS, SIGN_IN_OTHER_BROWSER, SIGN_IN_REFUSED, SIGN_IN_SPENT } from './sign-in-refusals';

const STATE_TTL_MINUTES = 10;

/** A sign-in state, consumed: for which supplier, and where the supplier sent the browser back. */
interface SignInStarted {
  signInId: string;
  supplierKey: string;
  mode: ConnectionMode;
  redirectUri: string;
}

/** The store access the callback checks its opener against (the identity domain's gate), and the key that started it. */
export type MemberAccess = Pick<Gate, 'storeAccess' | 'planIncludesDropshipping'>;
type StartingKeys = Pick<ApiKeyService, 'get'>;

/**
 * Sign-in connections. Started (through the API) for a store, a sign-in answers an address at this service; a member
 * of the store who manages its suppliers opens it in their browser, which gets a one-time value (a cookie whose HMAC is
 * stored) and is sent on to the supplier. The supplier's way back completes it only in that browser, and only while the
 * member, and whoever started it, may still connect suppliers to the store. A state is random, signed, expires after
 * ten minutes and is consumed by the first callback that presents it with the opening browser's cookie, whatever that
 * callback's outcome.
 */
export class SignInService {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    private readonly registry: SupplierRegistry,
    private readonly gateway: SupplierGateway,
    private readonly connections: ConnectionService,
    private readonly members: MemberAccess,
    private readonly keys: StartingKeys,
  ) {}

  async start(storeId: string, caller: { accountId: string; apiKeyId: string | null }, input: { supplierKey: string; mode: ConnectionMode }, baseUrl: string) {
    const adapter = this.registry.find(input.supplierKey);
    if (!adapter) throw errors.validationFailed([{ field: 'body/supplierKey', message: `no supplier ${input.supplierKey} in the catalogue` }]);
    if (this.registry.isSwitchedOff(input.supplierKey))
      throw errors.badRequest('supplierSwitchedOff', `The supplier ${input.supplierKey} is switched off by the operator of this service.`);
    if (!supportsSignIn(adapter)) {
      throw errors.badRequest('apiKeyRequired', `${adapter.entry.name} is connected with an API key: use POST /:storeId.`);
    }
    const nonce = crypto.randomBytes(24).toString('base64url');
    const redirectUri = callbackUri(baseUrl);
    const expiresAt = new Date(Date.now() + STATE_TTL_MINUTES * 60_000);
    const id = await sql.saveSignInState(
      this.db,
      nonce,
      {
        store_id: storeId,
        account_id: caller.accountId,
        api_key_id: caller.apiKeyId,
        supplier_key: input.supplierKey,
        mode: input.mode,
        redirect_uri: redirectUri,
      },
      expiresAt,
    );
    return { authorizationUrl: `${baseUrl}${signInAddress(storeId, id)}`, state: this.stateOf(storeId, nonce), expiresAt: expiresAt.toISOString() };
  }

  /**
   * Opens a sign-in in the browser of `accountId`, a member the route let through (suppliers.manage, a plan with
   * dropshipping): answers the supplier's page to go to and the cookie that binds the sign-in to this browser. The same
   * member may open it again (the newest browser wins); another member may not.
   */
  async open(storeId: string, id: string, accountId: string, base: string) {
    const secure = isHttps(base);
    const st = await sql.signInToOpen(this.db, storeId, id);
    if (!st) throw errors.notFound('The sign-in');
    if (st.spent) throw SIGN_IN_SPENT;
    // Made for another address than this service's public one (before it was configured, or since changed).
    if (st.redirect_uri !== callbackUri(base)) throw SIGN_IN_REFUSED;
    if (st.opened_by_account_id && st.opened_by_account_id !== accountId) throw SIGN_IN_OPENED_BY_ANOTHER;
    const adapter = this.registry.find(st.supplier_key);
    if (!adapter || !supportsSignIn(adapter)) throw SIGN_IN_REFUSED;
    if (this.registry.isSwitchedOff(st.supplier_key))
      throw errors.badRequest('supplierSwitchedOff', `The supplier ${st.supplier_key} is switched off by the operator of this service.`);
    const value = crypto.randomBytes(32).toString('base64url');
    if (!(await sql.bindSignInBrowser(this.db, storeId, id, accountId, this.secrets.sign(`sign-in-browser|${id}|${value}`)))) {
      // Lost a race since the read: used or expired meanwhile, or another member opened it first.
      throw (await sql.signInToOpen(this.db, storeId, id))?.spent ? SIGN_IN_SPENT : SIGN_IN_OPENED_BY_ANOTHER;
    }
    const maxAge = Math.max(1, Math.floor((st.expires_at.getTime() - Date.now()) / 1000));
    return {
      opened: {
        supplierKey: st.supplier_key,
        mode: st.mode,
        supplierUrl: adapter.signInUrl({ state: this.stateOf(storeId, st.nonce), redirectUri: st.redirect_uri, mode: st.mode }),
        expiresAt: st.expires_at.toISOString(),
      },
      cookie: browserCookie(id, value, maxAge, secure),
    };
  }

  /** The `Set-Cookie` that removes a completed sign-in's value from the browser. */
  clearCookie(id: string, base: string): string {
    return browserCookie(id, '', 0, isHttps(base));
  }

  /**
   * Uses up a state and answers the user it was started by (with the key, if a key started it and is still live) and
   * its store; null when it is not valid or was made for another address than this service's public one (`base`).
   * Throws when the browser is not the one that opened it, leaving the state to that browser; or when the member who
   * did may no longer connect suppliers to the store. The route's pipeline then checks the starter as any caller.
   */
  async consume(
    state: string,
    cookies: string | string[] | undefined,
    base: string,
    code: string | undefined,
  ): Promise<{ caller: Caller; storeId: string; carried: SignInStarted } | null> {
    const found = await this.find(state);
    if (!found || !base || found.redirect_uri !== callbackUri(base)) return null;
    const value = cookieOf(cookies, cookieName(found.id, isHttps(base)));
    const codeSeal = code ? `sign-in-code|${found.id}|${code}` : null;
    if (
      !found.opened_by_account_id ||
      !found.browser_digest ||
      !value ||
      !this.secrets.verifySignature(`sign-in-browser|${found.id}|${value}`, found.browser_digest)
    ) {
      // The state stays for the opening browser; a code that reached another one is never exchanged, by anyone.
      if (codeSeal) await sql.refuseSignInCode(this.db, found.store_id, found.id, this.secrets.sign(codeSeal));
      throw SIGN_IN_OTHER_BROWSER;
    }
    const st = await sql.useSignInState(this.db, found.store_id, found.id, found.browser_digest);
    if (!st || !st.opened_by_account_id) return null;
    // The opener brings a code that came back in another browser first (a forwarded supplier page): used up, refused.
    if (codeSeal && st.refused_code_digests.some((d) => this.secrets.verifySignature(codeSeal, d))) return null;
    const opener = await this.members.storeAccess(st.store_id, { accountId: st.opened_by_account_id });
    if (!opener || !opener.permissions.has('suppliers.manage') || !this.members.planIncludesDropshipping(opener.ownerPlan)) throw SIGN_IN_OPENER_LOST_ACCESS;
    let apiKey: Caller['apiKey'];
    if (st.api_key_id) {
      const key = await this.keys.get(st.account_id, st.api_key_id).catch(() => null);
      if (!key || key.revokedAt) return null;
      apiKey = { id: st.api_key_id, recordScope: key.recordScope };
    }
    return {
      caller: { accountId: st.account_id, apiKey },
      storeId: st.store_id,
      carried: { signInId: st.id, supplierKey: st.supplier_key, mode: st.mode, redirectUri: st.redirect_uri },
    };
  }

  /**
   * Exchanges the supplier's code, for a consumed state the pipeline has let through, and creates the connection; or,
   * when the store already has one to this supplier in this mode (within the caller's record scope), signs it in again:
   * its credentials are replaced (as PUT /:storeId/:id would) and a sign-in that had lapsed stands again.
   */
  async complete(
    started: SignInStarted,
    input: { code?: string; error?: string },
    storeId: string,
    creator: Creator,
    ownKeyId: string | null,
    /** What commits with a new connection (its credit); a renewal makes none. */
    within?: (tx: Queryable) => Promise<void>,
  ): Promise<{ conn: SupplierConnection; renewed: boolean }> {
    if (input.error || !input.code) throw errors.badRequest('signInDeclined', 'The merchant did not authorise the connection at the supplier.');
    const adapter = this.gateway.adapterFor(started.supplierKey);
    if (!supportsSignIn(adapter)) throw SIGN_IN_REFUSED;
    const credentials = await orSupplierFailure(adapter.exchangeSignInCode({ code: input.code, redirectUri: started.redirectUri, timeoutMs: 15000 }));
    const existing = await this.connections.liveOf(storeId, started.supplierKey, started.mode);
    if (existing && (!ownKeyId || existing.createdByKeyId === ownKeyId)) {
      const conn = await this.connections.replaceCredentials(existing, credentials);
      await setHealth(this.db, conn, {
        status: 'healthy',
        checkedAt: new Date().toISOString(),
        latencyMs: 0,
        message: `Signed in again as ${conn.accountLabel}`,
      });
      return { conn: await this.connections.get(storeId, conn.id, null), renewed: true };
    }
    return {
      conn: await this.connections.connect(storeId, { supplierKey: started.supplierKey, mode: started.mode, credentials }, creator, within),
      renewed: false,
    };
  }

  /** A state names its store, signed with it (`storeId.nonce.signature`), so using it is a statement on the store's shard. */
  private stateOf(storeId: string, nonce: string): string {
    return `${storeId}.${nonce}.${this.secrets.sign(`sign-in|${storeId}|${nonce}`)}`;
  }

  /** The unused state whose signature holds; null otherwise. */
  private async find(state: string) {
    const parts = state.split('.');
    const [storeId, nonce, sig] = parts;
    if (parts.length !== 3 || !storeId || !nonce || !sig || !this.secrets.verifySignature(`sign-in|${storeId}|${nonce}`, sig)) return null;
    return sql.findSignInState(this.db, storeId, nonce);
  }
}
