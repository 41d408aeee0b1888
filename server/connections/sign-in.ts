import type { Creator } from '../identity/permissions';
import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Secrets } from '../platform/crypto';
import { ApiError, errors } from '../platform/errors';
import type { Caller } from '../platform/http/route';
import { supportsSignIn, type ConnectionMode } from '../suppliers/adapter';
import type { SupplierRegistry } from '../suppliers/registry';
import type { SupplierConnection } from './types';
import type { SupplierGateway } from './gateway';
import { orSupplierFailure } from './http-errors';
import type { ConnectionService } from './service';
import * as sql from './sql';

const STATE_TTL_MINUTES = 10;
export const SIGN_IN_CALLBACK_PATH = '/api/store-suppliers/oauth/callback';

/** The one answer to a state that cannot complete a sign-in, whatever the reason. */
export const SIGN_IN_REFUSED = new ApiError(400, 'invalidSignInState', 'The sign-in state is unknown, expired, already used or not valid.');

/** A sign-in state, consumed: who started it, for which store and supplier. */
export interface SignInStarted {
  supplierKey: string;
  mode: ConnectionMode;
  redirectUri: string;
}

/**
 * Sign-in connections: the state is random, signed, stored against the store and the user who started,
 * expires after ten minutes and is consumed by the first callback that presents it.
 */
export class SignInService {
  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    private readonly registry: SupplierRegistry,
    private readonly gateway: SupplierGateway,
    private readonly connections: ConnectionService,
  ) {}

  async start(storeId: string, caller: { accountId: string; apiKeyId: string | null }, input: { supplierKey: string; mode: ConnectionMode }, baseUrl: string) {
    const adapter = this.registry.find(input.supplierKey);
    if (!adapter) throw errors.validationFailed([{ field: 'body/supplierKey', message: `no supplier ${input.supplierKey} in the catalogue` }]);
    if (this.registry.isSwitchedOff(input.supplierKey)) throw errors.badRequest('supplierSwitchedOff', `The supplier ${input.supplierKey} is switched off by the operator of this service.`);
    if (!supportsSignIn(adapter)) {
      throw errors.badRequest('apiKeyRequired', `${adapter.entry.name} is connected with an API key: use POST /:storeId.`);
    }
    const nonce = crypto.randomBytes(24).toString('base64url');
    const state = `${nonce}.${this.secrets.sign(`sign-in|${nonce}`)}`;
    const redirectUri = `${baseUrl}${SIGN_IN_CALLBACK_PATH}`;
    const expiresAt = new Date(Date.now() + STATE_TTL_MINUTES * 60_000);
    await sql.saveSignInState(this.db, nonce, { store_id: storeId, account_id: caller.accountId, api_key_id: caller.apiKeyId, supplier_key: input.supplierKey, mode: input.mode, redirect_uri: redirectUri }, expiresAt);
    return { authorizationUrl: adapter.signInUrl({ state, redirectUri, mode: input.mode }), state, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Uses up a state and answers the user it was started by (with the key, if a key started it and is still
   * live) and its store; null when it is not valid. The route's pipeline then checks that user as any caller.
   */
  async consume(state: string): Promise<{ caller: Caller; storeId: string; carried: SignInStarted } | null> {
    const [nonce, sig] = state.split('.');
    if (!nonce || !sig || !this.secrets.verifySignature(`sign-in|${nonce}`, sig)) return null;
    const st = await sql.useSignInState(this.db, nonce);
    if (!st) return null;
    let apiKey: Caller['apiKey'];
    if (st.api_key_id) {
      const recordScope = await sql.liveKeyScope(this.db, st.api_key_id);
      if (!recordScope) return null;
      apiKey = { id: st.api_key_id, recordScope };
    }
    return { caller: { accountId: st.account_id, apiKey }, storeId: st.store_id, carried: { supplierKey: st.supplier_key, mode: st.mode, redirectUri: st.redirect_uri } };
  }

  /**
   * Exchanges the supplier's code, for a consumed state the pipeline has let through, and creates the connection; or,
   * when the store already has one to this supplier in this mode (within the caller's record scope), signs it in again:
   * its credentials are replaced (as PUT /:storeId/:id would) and a sign-in that had lapsed stands again.
   */
  async complete(started: SignInStarted, input: { code?: string; error?: string }, storeId: string, creator: Creator, ownKeyId: string | null): Promise<{ conn: SupplierConnection; renewed: boolean }> {
    if (input.error || !input.code) throw errors.badRequest('signInDeclined', 'The merchant did not authorise the connection at the supplier.');
    const adapter = this.gateway.adapterFor(started.supplierKey);
    if (!supportsSignIn(adapter)) throw SIGN_IN_REFUSED;
    const credentials = await orSupplierFailure(adapter.exchangeSignInCode({ code: input.code, redirectUri: started.redirectUri, timeoutMs: 15000 }));
    const existing = await this.connections.liveOf(storeId, started.supplierKey, started.mode);
    if (existing && (!ownKeyId || existing.createdByKeyId === ownKeyId)) {
      const conn = await this.connections.replaceCredentials(existing, credentials);
      await sql.recordHealth(this.db, conn.id, { status: 'healthy', checkedAt: new Date().toISOString(), latencyMs: 0, message: `Signed in again as ${conn.accountLabel}` });
      return { conn: await this.connections.get(storeId, conn.id, null), renewed: true };
    }
    return { conn: await this.connections.connect(storeId, { supplierKey: started.supplierKey, mode: started.mode, credentials }, creator), renewed: false };
  }
}
