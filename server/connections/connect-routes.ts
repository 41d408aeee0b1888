import { creatorOf, ownRecordsKeyId } from '../identity/permissions';
import { errors } from '../platform/errors';
import { defineRoutes, route, Reply } from '../platform/http/route';
import { dateTime, object, params } from '../platform/http/schemas';
import type { SupplierRegistry } from '../suppliers/registry';
import { automationFields, connectionSchema, credentials, modeSchema, supplierKeySchema } from './schemas';
import type { ConnectionService } from './service';
import { SignInService } from './sign-in';
import { SIGN_IN_CALLBACK_PATH, signInAddress } from './sign-in-browser';
import { SIGN_IN_REFUSED } from './sign-in-refusals';

const BASE = '/api/store-suppliers';
const TAG = 'Supplier connections';
/** Connecting costs the same by key and by sign-in. */
const CONNECT_CREDITS = { action: 'supplierConnection.connect', price: 5 };
const supplierKey = supplierKeySchema;

/** Connecting a supplier: with its API key, or by a sign-in a member of the store completes in their own browser. */
export function connectRoutes(connections: ConnectionService, signIn: SignInService, registry: SupplierRegistry) {
  /**
   * The address this service is reached at, from configuration only (PUBLIC_BASE_URL, or the loopback address of the
   * embedded local default), never from the request's Host: the supplier sends the browser, and its code, there.
   */
  const base = () => {
    const url = connections.publicBase();
    if (!url) throw PUBLIC_BASE_URL_REQUIRED;
    return url;
  };
  return defineRoutes([
    route({
      operationId: 'connectSupplier',
      method: 'post',
      path: `${BASE}/:storeId`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: true,
      credits: CONNECT_CREDITS,
      readOnly: false,
      idempotent: true,
      summary: 'Connect a supplier with its API key; the key is verified with the supplier before it is stored',
      description:
        'A second connection to a supplier account that already has one (another store, or a reconnect) keeps both working and answers `sharedSupplierAccount: true`.',
      params: params(['storeId']),
      body: object({ supplierKey, mode: modeSchema, credentials, settings: { type: 'object' }, automation: object(automationFields) }, [
        'supplierKey',
        'mode',
        'credentials',
      ]),
      response: { status: 201, schema: connectionSchema },
      async handler({ params: p, body, caller, credits }) {
        const adapter = registry.find(body.supplierKey);
        // Without an adapter, connect refuses the supplier key before it looks at credentials.
        const creds = adapter ? connections.settings.validateCredentials(adapter, body.credentials) : {};
        return connections.present(
          await connections.connect(p.storeId, { ...body, credentials: creds }, creatorOf(caller!), (tx) => credits.spendInTransaction(tx)),
        );
      },
    }),
    route({
      operationId: 'startSupplierSignIn',
      method: 'post',
      path: `${BASE}/:storeId/oauth/start`,
      summary: 'Start connecting a supplier that uses sign-in; answers the address to send the merchant to',
      description: `The address (\`authorizationUrl\`) is at this service: \`${signInAddress('{storeId}', '{signInId}')}\`. A member of the store who holds suppliers.manage opens it in the console, signed in, and is sent on to the supplier; the supplier sends that browser back to ${SIGN_IN_CALLBACK_PATH} with a code, which creates the connection. It completes only in that browser. The sign-in expires after 10 minutes and works once. The addresses are made from the service's configured public address (\`PUBLIC_BASE_URL\`), never from the request: without one, 409 publicBaseUrlRequired.`,
      tag: TAG,
      auth: 'caller',
      permission: 'suppliers.manage',
      planGated: true,
      readOnly: false,
      params: params(['storeId']),
      body: object({ supplierKey, mode: modeSchema }, ['supplierKey', 'mode']),
      response: {
        status: 200,
        schema: object(
          {
            authorizationUrl: { type: 'string', description: "The sign-in's address at this service, for a member of the store to open in their browser" },
            state: {
              type: 'string',
              description: 'What the supplier carries back to the callback; it completes nothing without the browser that opened the address',
            },
            expiresAt: dateTime,
          },
          ['authorizationUrl', 'state', 'expiresAt'],
        ),
      },
      handler: async ({ params: p, body, caller }) =>
        signIn.start(p.storeId, { accountId: caller!.accountId, apiKeyId: caller!.apiKey?.id ?? null }, body, base()),
    }),
    route({
      operationId: 'openSupplierSignIn',
      method: 'post',
      path: `${BASE}/:storeId/oauth/:signInId/open`,
      summary: "Open a sign-in in this browser and answer the supplier's page to go to (the console does this at a sign-in's address)",
      description:
        "Signed in only (a session, never a key), as a member of the store holding suppliers.manage. Sets a cookie holding a one-time value for this browser (HttpOnly, SameSite=Lax; over https a Secure `__Host-` cookie, over plain http, the loopback local default only, sent only to the callback); the supplier's way back completes the sign-in only where it is. The member who opened it may open it again (the newest browser then holds it); another member gets 409 signInOpenedByAnother.",
      tag: TAG,
      auth: 'session',
      keyRefusal: errors.forbidden(
        'consoleSessionRequired',
        'A sign-in is opened by a person, signed in to the console, in the browser that goes on to the supplier; an API key cannot open it.',
      ),
      permission: 'suppliers.manage',
      planGated: true,
      readOnly: false,
      params: params(['storeId', 'signInId']),
      response: {
        status: 200,
        schema: object(
          { supplierKey, mode: modeSchema, supplierUrl: { type: 'string', description: "The supplier's sign-in page, for this browser" }, expiresAt: dateTime },
          ['supplierKey', 'mode', 'supplierUrl', 'expiresAt'],
        ),
      },
      async handler({ params: p, caller }) {
        const { opened, cookie } = await signIn.open(p.storeId, p.signInId, caller!.accountId, base());
        return new Reply(200, opened, false, { 'Set-Cookie': cookie, 'Cache-Control': 'no-store' });
      },
    }),
    route({
      operationId: 'completeSupplierSignIn',
      method: 'get',
      path: SIGN_IN_CALLBACK_PATH,
      summary: 'Where the supplier sends the merchant back after sign-in; exchanges the code and creates the connection (or signs the existing one in again)',
      description:
        'Authenticated by the signed, single-use state and the cookie of the browser that opened the sign-in, not by a key. A state made for another address than the configured public one: invalidSignInState. Another browser (the cookie missing or wrong): 400 signInBrowserMismatch, nothing is asked of the supplier, and the state stays usable by the browser that opened it, though never with a code that came back in another browser. The member who opened it must still hold suppliers.manage, and whoever started it too, on a plan with dropshipping; any other refusal answers invalidSignInState. Once the browser is recognised the state is used up, whatever the outcome.',
      tag: TAG,
      auth: 'carried',
      carriedCaller: (query, headers) => signIn.consume(query.state, headers.cookie, connections.publicBase(), query.code),
      refusal: SIGN_IN_REFUSED,
      permission: 'suppliers.manage',
      planGated: true,
      credits: CONNECT_CREDITS,
      readOnly: false,
      query: object({ state: { type: 'string', maxLength: 400 }, code: { type: 'string', maxLength: 400 }, error: { type: 'string', maxLength: 200 } }, [
        'state',
      ]),
      response: { status: 201, schema: connectionSchema },
      async handler({ query, carried, store, caller, credits }) {
        // A new connection spends the credit; signing in again renews an existing one, which (like replacing its
        // credentials) costs nothing, so it spends none and the credit is refunded.
        const { conn } = await signIn.complete(carried, query, store!.storeId, creatorOf(caller!), ownRecordsKeyId(caller), (tx) =>
          credits.spendInTransaction(tx),
        );
        return new Reply(201, await connections.present(conn), false, { 'Set-Cookie': signIn.clearCookie(carried.signInId, base()) });
      },
    }),
  ]);
}

const PUBLIC_BASE_URL_REQUIRED = errors.conflict(
  'publicBaseUrlRequired',
  "Sign-in needs this service's public address, where the supplier sends the merchant back: the operator sets PUBLIC_BASE_URL (the https:// address the service is reached at). It is never taken from the request.",
);
