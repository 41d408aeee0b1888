import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Secrets } from '../platform/crypto';
import { sqlRows } from '../platform/db';
import { ApiError, errors } from '../platform/errors';
import { supportsSignIn, type ConnectionMode } from '../suppliers/adapter';
import type { SupplierRegistry } from '../suppliers/registry';
import type { SupplierConnection } from './entities';
import type { SupplierGateway } from './gateway';
import { orSupplierFailure } from './http-errors';
import type { ConnectionService } from './service';

const STATE_TTL_MINUTES = 10;
export const SIGN_IN_CALLBACK_PATH = '/api/store-suppliers/oauth/callback';

const invalidState = () => new ApiError(400, 'invalidSignInState', 'The sign-in state is unknown, expired, already used or not valid.');

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
    /** Whether the account may still connect suppliers for the store (permission and owner's plan). */
    private readonly mayConnect: (storeId: string, accountId: string) => Promise<boolean>,
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
    await this.db.query(
      `INSERT INTO supplier_sign_in_states (nonce, store_id, account_id, api_key_id, supplier_key, mode, redirect_uri, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [nonce, storeId, caller.accountId, caller.apiKeyId, input.supplierKey, input.mode, redirectUri, expiresAt],
    );
    return { authorizationUrl: adapter.signInUrl({ state, redirectUri, mode: input.mode }), state, expiresAt: expiresAt.toISOString() };
  }

  async complete(input: { state: string; code?: string; error?: string }): Promise<SupplierConnection> {
    const [nonce, sig] = input.state.split('.');
    if (!nonce || !sig || !this.secrets.verifySignature(`sign-in|${nonce}`, sig)) throw invalidState();
    const rows = await sqlRows<{ store_id: string; account_id: string; api_key_id: string | null; supplier_key: string; mode: ConnectionMode; redirect_uri: string }>(
      this.db,
      `UPDATE supplier_sign_in_states SET used_at = now()
        WHERE nonce = $1 AND used_at IS NULL AND expires_at > now()
        RETURNING store_id, account_id, api_key_id, supplier_key, mode, redirect_uri`,
      [nonce],
    );
    const st = rows[0];
    if (!st) throw invalidState();
    if (input.error || !input.code) throw errors.badRequest('signInDeclined', 'The merchant did not authorise the connection at the supplier.');
    if (!(await this.mayConnect(st.store_id, st.account_id))) throw invalidState();
    if (st.api_key_id) {
      const live = await this.db.query('SELECT 1 FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [st.api_key_id]);
      if (!live.length) throw invalidState();
    }
    const adapter = this.gateway.adapterFor(st.supplier_key);
    const credentials = await orSupplierFailure(adapter.exchangeSignInCode!({ code: input.code, redirectUri: st.redirect_uri, timeoutMs: 15000 }));
    return this.connections.connect(st.store_id, { supplierKey: st.supplier_key, mode: st.mode, credentials }, { createdByAccountId: st.account_id, createdByKeyId: st.api_key_id });
  }
}
