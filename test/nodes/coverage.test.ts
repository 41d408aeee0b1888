/**
 * The node covers every supplier route of the service: the list comes from the OpenAPI document a
 * running service serves, and each operation names the route it calls (its `routing` export).
 */
import fs from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../../nodes/StoreSuppliers/actions/helpers';
import { resources } from '../../nodes/StoreSuppliers/actions/node.type';
import { StoreSuppliers } from '../../nodes/StoreSuppliers/StoreSuppliers.node';
import { StoreSuppliersTrigger } from '../../nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node';
import { EVENT_TYPES, SUBSCRIPTION_ROUTES } from '../../nodes/StoreSuppliersTrigger/webhook';
import type { Route } from '../../nodes/StoreSuppliers/transport';
import { ORDER_STATUS_OPTIONS } from '../../nodes/StoreSuppliers/actions/storeOrder/common';
import { STATUS_OPTIONS } from '../../nodes/StoreSuppliers/actions/supplierOrder/getAll.operation';
import { EVENT_TYPES as SERVICE_EVENT_TYPES } from '../../server/events/types';
import { leakScanTest, newDeveloper, Service, startService } from '../support/harness';

let svc: Service;

beforeAll(async () => {
  svc = await startService({ label: 'node-coverage' });
  await newDeveloper(svc);
});
afterAll(async () => {
  await svc.stop();
});

interface DocRoute {
  operationId: string;
  method: string;
  path: string;
  /** Takes an Idempotency-Key (a create or money action): the node must send one. */
  idempotent: boolean;
}

const keyed = (op: any): boolean => (op?.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');

const BASE = '/api/store-suppliers/';
/**
 * Not node operations: the supplier's notification address and the sign-in callback the supplier
 * redirects to (not for developers), and the event subscriptions, which the trigger manages itself.
 */
const notSupplierRoutes = (path: string) => path.startsWith(`${BASE}webhook/`) || path === `${BASE}oauth/callback` || path.includes('/event-subscriptions');

function nodeOperations(): Array<{ resource: string; operation: string; op: OperationModule }> {
  return Object.entries(resources).flatMap(([resource, ops]) =>
    Object.entries(ops as Record<string, OperationModule>).map(([operation, op]) => ({ resource, operation, op })),
  );
}

/** The store-side routes the node also covers (store orders, and reading store products). */
const STORE_SIDE = new Set([
  'createStoreOrder',
  'listStoreOrders',
  'getStoreOrder',
  'confirmStoreOrder',
  'markStoreOrderPaid',
  'refundStoreOrder',
  'listStoreProducts',
  'getStoreProduct',
]);

async function supplierRoutes(withStoreSide = false): Promise<DocRoute[]> {
  const res = await svc.call('GET', '/api/store-suppliers/openapi.json');
  expect(res.status).toBe(200);
  const routes: DocRoute[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(res.body.paths)) {
    if (withStoreSide && !path.startsWith(BASE)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (STORE_SIDE.has(op?.operationId)) routes.push({ operationId: op.operationId, method: method.toUpperCase(), path, idempotent: keyed(op) });
      }
      continue;
    }
    if (!path.startsWith(BASE) || notSupplierRoutes(path)) continue;
    for (const [method, op] of Object.entries<any>(item)) {
      // The node calls with a key: a signed-in person's step (opening a sign-in in their browser) is not its.
      if (!op?.security?.some((s: object) => 'apiKey' in s)) continue;
      if (op?.operationId) routes.push({ operationId: op.operationId, method: method.toUpperCase(), path, idempotent: keyed(op) });
    }
  }
  return routes;
}

test('every supplier route in the OpenAPI document (and the store-side routes it covers) has an operation in the node, with the same method and path', async () => {
  const doc = await supplierRoutes(true);
  expect(doc.length).toBeGreaterThanOrEqual(37);
  expect(doc.filter((r) => STORE_SIDE.has(r.operationId))).toHaveLength(STORE_SIDE.size);
  const byOperationId = new Map(nodeOperations().map((o) => [o.op.routing.operationId, o]));
  const missing = doc.filter((r) => !byOperationId.has(r.operationId)).map((r) => `${r.method} ${r.path} (${r.operationId})`);
  expect(missing).toEqual([]);
  for (const route of doc) {
    const { routing } = byOperationId.get(route.operationId)!.op;
    expect(`${routing.method} ${routing.path} keyed=${routing.idempotent === true}`).toBe(`${route.method} ${route.path} keyed=${route.idempotent}`);
  }
});

test("the subscription routes the trigger's webhook mode calls are the document's, with the same method and path", async () => {
  const res = await svc.call('GET', '/api/store-suppliers/openapi.json');
  const byOperationId = new Map<string, string>();
  for (const [path, item] of Object.entries<Record<string, any>>(res.body.paths)) {
    for (const [method, op] of Object.entries<any>(item))
      if (op?.operationId) byOperationId.set(op.operationId, `${method.toUpperCase()} ${path} keyed=${keyed(op)}`);
  }
  for (const route of Object.values<Route>(SUBSCRIPTION_ROUTES))
    expect(byOperationId.get(route.operationId)).toBe(`${route.method} ${route.path} keyed=${route.idempotent === true}`);
});

test("the trigger offers exactly the service's event types, each described in the service's words", () => {
  expect(EVENT_TYPES.map((t) => t.value).sort()).toEqual(Object.keys(SERVICE_EVENT_TYPES).sort());
  for (const t of EVENT_TYPES)
    expect({ type: t.value, description: `${t.description}.` }).toEqual({ type: t.value, description: SERVICE_EVENT_TYPES[t.value] });
  expect(EVENT_TYPES.find((t) => t.value === 'supplierOrder.paused')?.name).toBe('Supplier Order Paused');
});

test("the status pickers offer exactly the statuses the service's lists take, as the document gives them", async () => {
  const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
  const statusesOf = (path: string) => doc.paths[path].get.parameters.find((p: { name: string }) => p.name === 'status').schema.enum as string[];
  expect(STATUS_OPTIONS.map((o) => o.value).sort()).toEqual(statusesOf('/api/store-suppliers/{storeId}/orders').sort());
  expect(ORDER_STATUS_OPTIONS.map((o) => o.value).sort()).toEqual(statusesOf('/api/store-orders/{storeId}').sort());
  expect(STATUS_OPTIONS.find((o) => o.value === 'needsReview')?.name).toBe('Needs Review');
  for (const options of [STATUS_OPTIONS, ORDER_STATUS_OPTIONS])
    expect(options.map((o) => o.name)).toEqual(options.map((o) => o.name).sort((a, b) => a.localeCompare(b)));
});

test('every operation of the node calls a supplier route (or a covered store-side route) of the document, and no two call the same one', async () => {
  const doc = new Set((await supplierRoutes(true)).map((r) => r.operationId));
  const ops = nodeOperations();
  expect(ops.filter((o) => !doc.has(o.op.routing.operationId)).map((o) => `${o.resource}.${o.operation}`)).toEqual([]);
  expect(new Set(ops.map((o) => o.op.routing.operationId)).size).toBe(ops.length);
});

test('the resource and operation pickers offer exactly the operations the router dispatches', () => {
  const { properties } = new StoreSuppliers().description;
  const resourcePicker = properties.find((p) => p.name === 'resource')!;
  expect(resourcePicker.options!.map((o: any) => o.value).sort()).toEqual(Object.keys(resources).sort());
  for (const [resource, ops] of Object.entries(resources)) {
    const picker = properties.find((p: INodeProperties) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))!;
    expect(picker).toBeDefined();
    expect(picker.options!.map((o: any) => o.value).sort()).toEqual(Object.keys(ops).sort());
    for (const option of picker.options as any[]) expect(option.action).toEqual(expect.any(String));
  }
});

test('every field of an operation is shown only for its resource and operation, and every one has a store', () => {
  const { properties } = new StoreSuppliers().description;
  for (const { resource, operation, op } of nodeOperations()) {
    for (const field of op.description) {
      expect(field.displayOptions?.show).toMatchObject({ resource: [resource], operation: [operation] });
    }
    const stores = properties.filter((p) => p.name === 'store' && p.displayOptions?.show?.resource?.includes(resource));
    expect(stores).toHaveLength(1);
  }
});

test("each operation has its own test file, test/nodes/<resource>/<operation>.test.ts (as n8n's own nodes have them), and each such file is an operation's", () => {
  for (const [resource, ops] of Object.entries(resources)) {
    const files = fs.readdirSync(path.join(__dirname, resource)).filter((f) => f.endsWith('.test.ts'));
    expect([resource, files.map((f) => f.replace(/\.test\.ts$/, '')).sort()]).toEqual([resource, Object.keys(ops).sort()]);
  }
});

test('optional filters start at "any" on every list and the trigger', () => {
  const lists = [...new StoreSuppliers().description.properties, ...new StoreSuppliersTrigger().description.properties].filter((p) => p.name === 'filters');
  expect(lists.length).toBeGreaterThanOrEqual(4);
  for (const filters of lists) {
    for (const option of (filters.options ?? []) as INodeProperties[]) {
      if (option.type !== 'options' || option.typeOptions?.loadOptionsMethod) continue;
      expect([option.name, option.default]).toEqual([option.name, '']);
      expect(option.options).toContainEqual({ name: 'Any', value: '' });
    }
  }
});

leakScanTest();
