/**
 * The soak's stores, made as merchants make them, over HTTP: an account (Developer, pro plan and credits from the
 * operator API), a key, a store, a sandbox connection (automatic, paying the supplier), a CJ-format connection
 * (manual: the soak sends and pays its parts), an AliExpress-format connection made by signing in (automatic), a
 * Printful-format connection (automatic: drafted and confirmed as shoppers pay; its webhooks report the packages),
 * products imported from each, the sandbox payment provider, and event subscriptions to flaky receivers.
 */
import crypto from 'node:crypto';
import { Api, control, resultOf } from './api';
import type { Deployment } from './deployments';
import type { Suppliers } from './programs';
import { Behaviour, Receiver } from './receivers';
import { signInToAliExpress } from './sign-in';
import { Catalogues, Product, SupplierName, importOne } from './catalogues';

export interface Store {
  index: number;
  deployment: Deployment;
  api: Api;
  owner: { accountId: string; key: string; session: string };
  storeId: string;
  conns: Record<SupplierName, string>;
  /** The store's accounts at the suppliers: the sandbox account, the CJ openId, the AliExpress buyer, the Printful store id. */
  accounts: Record<SupplierName, string>;
  products: Product[];
  /** Supplier products an import was tried for (imported or not). */
  tried: Set<string>;
  merchant: { id: string; apiKey: string };
  receivers: Receiver[];
  subscriptions: Array<{ id: string; receiver: Receiver }>;
}

export const CREDITS_GRANTED = 1_000_000;

async function developer(api: Api, index: number): Promise<Store['owner']> {
  const email = `soak-${index}-${crypto.randomBytes(4).toString('hex')}@example.test`;
  const up = resultOf(
    await api.patiently<{ result: { sessionToken: string; account: { id: string } } }>('POST', '/api/auth/sign-up', {
      body: { email, password: crypto.randomBytes(16).toString('hex'), name: `Soak merchant ${index}` },
    }),
    'sign-up',
  );
  resultOf(await api.patiently<{ result: unknown }>('POST', '/api/account/developer', { session: up.sessionToken }), 'Developer account');
  await api.operator('PUT', `/api/operator/accounts/${up.account.id}/plan`, { plan: 'pro' });
  await api.operator('POST', `/api/operator/accounts/${up.account.id}/credits`, { amount: CREDITS_GRANTED, reason: 'soak' });
  const key = resultOf(
    await api.patiently<{ result: { key: string } }>('POST', '/api/api-keys', { session: up.sessionToken, body: { name: 'soak', recordScope: 'account' } }),
    'API key',
  );
  return { accountId: up.account.id, key: key.key, session: up.sessionToken };
}

async function connect(api: Api, owner: Store['owner'], storeId: string, supplier: SupplierName, body: unknown): Promise<string> {
  const a = await api.charged<{ result: { id: string } }>(
    { accountId: owner.accountId, action: 'supplierConnection.connect', price: 5, what: `connect ${supplier} to store ${storeId}` },
    'POST',
    `/api/store-suppliers/${storeId}`,
    { key: owner.key, body },
  );
  return resultOf(a, `connect ${supplier}`).id;
}

async function automation(api: Api, owner: Store['owner'], storeId: string, connId: string, body: unknown): Promise<void> {
  resultOf(await api.patiently<{ result: unknown }>('PUT', `/api/store-suppliers/${storeId}/${connId}/automation`, { key: owner.key, body }), 'automation');
}

const BEHAVIOURS: Behaviour[][] = [
  ['flaky', 'fine'],
  ['hanging', 'flaky'],
  ['fine', 'hanging'],
  ['flaky', 'hanging'],
];

export async function openStore(index: number, deployment: Deployment, s: Suppliers, cats: Catalogues, random: () => number): Promise<Store> {
  const api = deployment.api;
  const owner = await developer(api, index);
  const storeId = resultOf(
    await api.patiently<{ result: { id: string } }>('POST', '/api/stores', { key: owner.key, body: { name: `Soak store ${index}`, currency: 'USD' } }),
    'store',
  ).id;

  const sbx = await control<{ accountId: string; liveKey: string }>(s.sandbox.control, 'POST', '/accounts', {
    balanceMinor: 1_000_000_000,
    testBalanceMinor: 100_000,
  });
  const cj = await control<{ openId: string; apiKey: string }>(s.cj.control, 'POST', '/accounts', { balance: '10000000.00', qps: 6 });
  const buyer = await control<{ userId: string }>(s.aliexpress.control, 'POST', '/buyers', {});
  const pf = await control<{ token: string; storeIds: number[] }>(s.printful.control, 'POST', '/accounts', { name: `Soak print shop ${index}` });
  const conns = {
    sandbox: await connect(api, owner, storeId, 'sandbox', { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: sbx.liveKey } }),
    cj: await connect(api, owner, storeId, 'cj', { supplierKey: 'cj', mode: 'live', credentials: { apiKey: cj.apiKey }, settings: { requestsPerSecond: 6 } }),
    aliexpress: '',
    printful: await connect(api, owner, storeId, 'printful', { supplierKey: 'printful', mode: 'live', credentials: { apiKey: pf.token } }),
  };
  const signedIn = await signInToAliExpress(api, owner, storeId, buyer.userId);
  api.book.push({
    requestId: signedIn.requestId,
    accountId: owner.accountId,
    action: 'supplierConnection.connect',
    price: 5,
    expected: 5,
    what: `connect aliexpress to store ${storeId} by signing in`,
    status: signedIn.status,
  });
  conns.aliexpress = signedIn.connId;
  await automation(api, owner, storeId, conns.sandbox, { level: 'automatic', automaticPayment: true });
  await automation(api, owner, storeId, conns.cj, { level: 'manual', automaticPayment: false });
  await automation(api, owner, storeId, conns.aliexpress, { level: 'automatic', automaticPayment: true });
  await automation(api, owner, storeId, conns.printful, { level: 'automatic', automaticPayment: true });

  const store: Store = {
    index,
    deployment,
    api,
    owner,
    storeId,
    conns,
    accounts: { sandbox: sbx.accountId, cj: cj.openId, aliexpress: buyer.userId, printful: String(pf.storeIds[0]) },
    products: [],
    tried: new Set(),
    merchant: { id: '', apiKey: '' },
    receivers: [],
    subscriptions: [],
  };
  for (const supplier of ['sandbox', 'sandbox', 'cj', 'cj', 'aliexpress', 'printful'] as SupplierName[]) {
    const p = await importOne(store, cats, supplier);
    if (!p) throw new Error(`store ${index}: the first ${supplier} import did not import: ${JSON.stringify(api.book.at(-1))}`);
  }

  const merchant = await control<{ merchantId: string; apiKey: string }>(s.payments.baseUrl, 'POST', '/v1/merchants');
  const address = await fetch(`${s.payments.baseUrl}/v1/notification-address`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${merchant.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${api.baseUrl}/api/payment-notifications/${storeId}` }),
  }).then((r) => r.json() as Promise<{ signingSecret: string }>);
  const provider = {
    provider: 'sandbox',
    signingSecret: address.signingSecret,
    checkoutUrl: `${s.payments.baseUrl}/checkout?merchant=${merchant.merchantId}`,
    apiKey: merchant.apiKey,
  };
  resultOf(await api.patiently<{ result: unknown }>('PUT', `/api/stores/${storeId}/payment-provider`, { key: owner.key, body: provider }), 'payment provider');
  store.merchant = { id: merchant.merchantId, apiKey: merchant.apiKey };

  for (const [i, behaviour] of BEHAVIOURS[index % BEHAVIOURS.length].entries()) {
    const receiver = new Receiver(`store${index}-${i}-${behaviour}`, behaviour, random);
    await receiver.start();
    const sub = resultOf(
      await api.patiently<{ result: { id: string; secret: string } }>('POST', `/api/store-suppliers/${storeId}/event-subscriptions`, {
        key: owner.key,
        body: { url: receiver.url, eventTypes: ['*'] },
      }),
      'event subscription',
    );
    receiver.secret = sub.secret;
    store.receivers.push(receiver);
    store.subscriptions.push({ id: sub.id, receiver });
  }
  return store;
}
