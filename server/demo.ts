import fs from 'node:fs';
import path from 'node:path';
import type { Services } from './composition';
import { notificationPath } from './payments/providers';

const DEMO_EMAIL = 'demo@store-suppliers.local';
const STAFF_EMAIL = 'staff@store-suppliers.local';
const DEMO_PASSWORD = 'demo-password-123';
/** The sandbox supplier's built-in demo account key (see docs/suppliers/sandbox.md). */
const SANDBOX_DEMO_KEY = 'sbx_live_demo';
/** The built-in account of the sandbox program's second warehouse (`/eu`, the supplier `sandbox-eu`). */
const SANDBOX_EU_DEMO_KEY = 'sbx_live_demo_eu';
/** Products the demo store links at first, each with its twin at the second warehouse as a backup. */
const DEMO_LINKS = 3;
/** The sandbox payment provider's built-in merchant (its id and API key), which survives its restarts. */
const DEMO_MERCHANT = { id: 'mer_demo', apiKey: 'spk_demo' } as const;

export interface DemoInfo {
  baseUrl: string;
  apiKey: string;
  storeId: string;
  email: string;
  password: string;
  staffApiKey: string;
  paymentProvider?: { baseUrl: string; apiKey: string; merchantId: string; checkoutUrl: string };
  [more: string]: unknown;
}

/**
 * The demo account (pro plan, Developer), its store, a staff member holding only suppliers.view,
 * and a key for each. Created once; later starts find them and answer the same keys.
 */
export async function ensureDemo(s: Services, baseUrl: string): Promise<DemoInfo> {
  const lockId = 727274002;
  const runner = s.db.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [lockId]);
    let owner = await s.accounts.findByEmail(DEMO_EMAIL);
    if (!owner) {
      owner = (await s.accounts.signUp({ email: DEMO_EMAIL, password: DEMO_PASSWORD, name: 'Demo Merchant' })).account;
      await s.operator.setPlan(owner.id, 'pro');
      await s.accounts.becomeDeveloper(owner.id);
      await s.operator.grantCredits(owner.id, 10000, 'Demo account', null);
    }
    let staff = await s.accounts.findByEmail(STAFF_EMAIL);
    if (!staff) {
      staff = (await s.accounts.signUp({ email: STAFF_EMAIL, password: DEMO_PASSWORD, name: 'Demo Staff' })).account;
      await s.accounts.becomeDeveloper(staff.id);
    }
    let store = (await s.stores.listFor(owner.id)).find((st) => st.role === 'owner');
    if (!store) {
      const created = await s.stores.create(owner.id, { name: 'Demo Store', currency: 'USD' });
      store = (await s.stores.listFor(owner.id)).find((st) => st.id === created.id)!;
    }
    await s.stores.setStaff(store.id, staff.id, ['suppliers.view'], { isOwner: true, permissions: new Set() });
    const keyFor = async (accountId: string, name: string) => {
      const existing = (await s.apiKeys.list(accountId)).find((k) => k.name === name && !k.revokedAt);
      if (existing) return s.apiKeys.reveal(accountId, existing.id);
      return (await s.apiKeys.create(accountId, { name, recordScope: 'account' })).fullKey;
    };
    const info: DemoInfo = {
      baseUrl,
      apiKey: await keyFor(owner.id, 'Demo key'),
      storeId: store.id,
      email: DEMO_EMAIL,
      password: DEMO_PASSWORD,
      staffApiKey: await keyFor(staff.id, 'Demo staff key'),
      // The operator API's token (plans, credit grants), generated for the embedded default only.
      ...(s.config.operatorToken ? { operatorToken: s.config.operatorToken } : {}),
    };
    const sandboxUrl = s.config.sandboxSupplierUrl;
    if (sandboxUrl && s.registry.find('sandbox')) {
      info.connectionId = await ensureSandboxConnection(s, store.id, owner.id);
      info.sandboxSupplier = {
        baseUrl: sandboxUrl,
        apiKey: SANDBOX_DEMO_KEY,
        controlUrl: s.config.sandboxSupplierControl ? `${sandboxUrl}/control` : null,
      };
      if (s.registry.find('sandbox-eu')) {
        const backup = await ensureSandboxConnection(s, store.id, owner.id, 'sandbox-eu', SANDBOX_EU_DEMO_KEY);
        info.backupConnectionId = backup;
        info.sandboxSupplierEu = {
          baseUrl: `${sandboxUrl}/eu`,
          apiKey: SANDBOX_EU_DEMO_KEY,
          controlUrl: s.config.sandboxSupplierControl ? `${sandboxUrl}/eu/control` : null,
        };
        await ensureDemoLinks(s, {
          baseUrl,
          apiKey: info.apiKey,
          storeId: store.id,
          connectionId: info.connectionId as string,
          backupConnectionId: backup,
        }).catch((err: unknown) => {
          s.log.warn({ err: String(err) }, "the demo store's linked products with backups could not be set up");
        });
      }
    }
    if (s.config.sandboxPaymentsUrl) {
      info.paymentProvider = await ensureSandboxPayments(s, store.id, baseUrl).catch((err: unknown) => {
        s.log.warn({ err: String(err) }, 'the demo store could not be set up with the sandbox payment provider');
        return undefined;
      });
    }
    return info;
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * The demo store's live connection to the bundled sandbox, made with the sandbox's built-in demo
 * account (the sandbox keeps its state in memory, so only that account survives a restart).
 * The notification address is registered again at every start for the same reason.
 */
async function ensureSandboxConnection(s: Services, storeId: string, ownerId: string, supplierKey = 'sandbox', apiKey = SANDBOX_DEMO_KEY): Promise<string> {
  const existing = (await s.connections.list(storeId, null)).find((c) => c.supplierKey === supplierKey && c.mode === 'live');
  if (existing) {
    await s.connections.reregisterAddress(existing);
    return existing.id;
  }
  const conn = await s.connections.connect(
    storeId,
    { supplierKey, mode: 'live', credentials: { apiKey } },
    { createdByAccountId: ownerId, createdByKeyId: null },
  );
  await s.connections.changeAutomation(conn, { level: 'manual' });
  return conn.id;
}

/**
 * A few products linked at first, each variant with its twin at the second warehouse as a backup (`alternates`), so
 * rerouting can be tried with no set-up. Made through the service's own API with the demo key, as a merchant would;
 * once: a store that has a link with backups already is left as it is. Products picked: shipped to the US by both, in
 * stock at both, the backup no dearer than the reroute rule's default ceiling (10%).
 */
async function ensureDemoLinks(
  s: Services,
  d: { baseUrl: string; apiKey: string; storeId: string; connectionId: string; backupConnectionId: string },
): Promise<void> {
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${d.baseUrl}/api/store-suppliers/${d.storeId}${path}`, {
      method,
      headers: { 'X-API-Key': d.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await res.json()) as { result?: any; error?: { code: string; message: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.error?.code}: ${json.error?.message}`);
    return json.result;
  };
  const links = await api('GET', `/links?connectionId=${d.connectionId}&pageSize=100`);
  if (links.items.some((l: { variants: Array<{ alternates: unknown[] }> }) => l.variants.some((v) => v.alternates.length > 0))) return;
  type P = { id: string; shipsTo: string[]; variants: Array<{ id: string; cost: { amountMinor: number }; stock: number; available: boolean }> };
  const costOf = (v: P['variants'][number]) => v.cost.amountMinor;
  const picked: Array<{ product: P; variantId: string }> = [];
  let cursor: string | null = null;
  for (let page = 1; picked.length < DEMO_LINKS && page <= 5; page++) {
    const found: { items: P[]; pagination: { nextCursor: string | null } } = await api(
      'GET',
      `/${d.connectionId}/products?pageSize=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    cursor = found.pagination.nextCursor;
    for (const p of found.items) {
      if (picked.length >= DEMO_LINKS) break;
      const v = p.variants[0];
      if (!p.shipsTo.includes('US') || !v.available || v.stock < 20) continue;
      const twin: P | null = await api('GET', `/${d.backupConnectionId}/products/${encodeURIComponent(p.id)}`).catch(() => null);
      const tv = twin?.variants.find((x) => x.id === v.id);
      if (!twin || !tv || !twin.shipsTo.includes('US') || !tv.available || tv.stock < 20 || costOf(tv) * 100 > costOf(v) * 110) continue;
      picked.push({ product: p, variantId: v.id });
    }
    if (!cursor) break;
  }
  if (!picked.length) return;
  const imported = await api('POST', `/${d.connectionId}/import`, {
    products: picked.map((x) => ({ supplierProductId: x.product.id, variantIds: [x.variantId] })),
  });
  for (const link of imported.links as Array<{
    id: string;
    supplierProductId: string;
    variants: Array<{ storeVariantId: string; supplierVariantId: string }>;
  }>) {
    const alternates = link.variants.map((v) => ({
      storeVariantId: v.storeVariantId,
      connectionId: d.backupConnectionId,
      supplierProductId: link.supplierProductId,
      supplierVariantId: v.supplierVariantId,
    }));
    await api('PUT', `/links/${link.id}`, { alternates });
  }
  s.log.info({ links: imported.links.length }, 'demo store: linked products with a backup supplier each');
}

/**
 * The demo store takes its shopper payments from the sandbox payment provider's built-in demo merchant: the address
 * is registered there at every start (the sandbox keeps state in memory), and the fresh secret it answers is stored.
 */
async function ensureSandboxPayments(s: Services, storeId: string, baseUrl: string): Promise<NonNullable<DemoInfo['paymentProvider']>> {
  const url = s.config.sandboxPaymentsUrl;
  const res = await fetch(`${url}/v1/notification-address`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${DEMO_MERCHANT.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: (s.config.publicBaseUrl || baseUrl) + notificationPath(storeId) }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`the sandbox payment provider answered ${res.status}`);
  const { signingSecret } = (await res.json()) as { signingSecret: string };
  const checkoutUrl = `${url}/checkout?merchant=${DEMO_MERCHANT.id}`;
  // With the demo merchant's key the service can capture promise-to-sell payments there.
  await s.paymentProviders.configure(storeId, { provider: 'sandbox', signingSecret, checkoutUrl, apiKey: DEMO_MERCHANT.apiKey });
  return { baseUrl: url, apiKey: DEMO_MERCHANT.apiKey, merchantId: DEMO_MERCHANT.id, checkoutUrl };
}

export function writeDemoFile(dataDir: string, info: DemoInfo): string {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'demo.json');
  fs.writeFileSync(file, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
  return file;
}
