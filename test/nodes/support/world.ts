/** The node tests' set-up (a shared world and the file's own shops) and a way to run the node against it. */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { StoreSuppliers } from '../../../nodes/StoreSuppliers/StoreSuppliers.node';
import { eventually, leakScanTest as scanForLeaks, seen, ServiceClient } from '../../support/harness';
import { placeOrder, Shop, submit } from '../../support/orders';
import { type Credentials, type Param, rl } from './context';
import { recorder, type Recorder, runInEngine } from './engine';
import { sharedWorld, type World } from './shared-world';

export type { World } from './shared-world';

export const credentialsOf = (svc: ServiceClient, apiKey: string): Credentials => ({ baseUrl: svc.baseUrl, apiKey });

/** What a test file has once its beforeAll ran: its folder's world, and what it opened there (its shop or shops). */
export interface SetUp<T> {
  readonly world: World;
  readonly shop: T;
}

/**
 * The folder's shared world (shared-world.ts) and the file's own records in it, opened before its first
 * test. Each file opens its own shops, so the files of a folder share the service and nothing else.
 */
export function setUp<T>(folder: string, open: (world: World) => Promise<T>): SetUp<T> {
  let ready: SetUp<T> | undefined;
  beforeAll(async () => {
    const world = await sharedWorld(folder);
    ready = { world, shop: await open(world) };
  }, 180000);
  const got = (): SetUp<T> => {
    if (!ready) throw new Error('The set-up has not run');
    return ready;
  };
  return {
    get world() {
      return got().world;
    },
    get shop() {
      return got().shop;
    },
  };
}

/**
 * A test file of one resource: its set-up (see setUp) with one shop, the shop owner's credentials, and the
 * node's parameters for the resource in the shop's store.
 */
export function resourceFile<T extends Shop>(folder: string, resource: string, open: (world: World) => Promise<T>) {
  const s = setUp(folder, open);
  return {
    s,
    creds: (): Credentials => credentialsOf(s.world.svc, s.shop.owner.key),
    params: (p: Record<string, Param>): Record<string, Param> => ({ resource, store: rl(s.shop.storeId), ...p }),
  };
}

/** The last two tests of a node test file: the world's log joins what the leak scan reads, then the scan. */
export function leakScanTest(setup: { readonly world: World }): void {
  test("the shared service logged this file's calls (its log is part of the leak scan)", () => {
    const lines = setup.world.logLines();
    expect(lines.length).toBeGreaterThan(0);
    seen.logLines.push(...lines);
  });
  scanForLeaks();
}

export interface Run {
  /** The success output's items. */
  out: INodeExecutionData[];
  json: IDataObject[];
  /** The error output's items (On Error: Continue (using error output)). */
  errorOutput: INodeExecutionData[];
  rec: Recorder;
}

/**
 * A parameter given per item (a function of the item index) becomes an n8n expression picking the
 * item's value, so n8n resolves it per item as it would `{{ $json.x }}`. A collection gets one expression
 * per field, as n8n's editor offers it (a whole collection cannot be an expression).
 */
function asExpressions(parameters: Record<string, Param>, count: number): INode['parameters'] {
  const perItem = (values: unknown[]) => `={{ ${JSON.stringify(values)}[$itemIndex] }}`;
  const out: IDataObject = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (typeof value !== 'function') {
      out[name] = value as IDataObject;
      continue;
    }
    const values = Array.from({ length: count }, (_, i) => (value as (i: number) => unknown)(i));
    if (values.every((v) => v && typeof v === 'object' && !Array.isArray(v) && !('__rl' in v))) {
      const fields = [...new Set(values.flatMap((v) => Object.keys(v as IDataObject)))];
      out[name] = Object.fromEntries(fields.map((f) => [f, perItem(values.map((v) => (v as IDataObject)[f]))]));
    } else out[name] = perItem(values);
  }
  return out as INode['parameters'];
}

interface RunOptions {
  items?: INodeExecutionData[];
  /** n8n's Retry On Fail: the node is run again, within the same run, up to `maxTries` times. */
  retryOnFail?: { maxTries: number };
  /** Drops the first `count` answers to requests matching `path` once they have arrived. */
  lose?: Recorder['lose'];
  continueOnFail?: boolean;
  onError?: 'continueErrorOutput' | 'continueRegularOutput';
}

async function runOnce(credentials: Credentials, parameters: Record<string, Param>, opts: RunOptions) {
  const items = opts.items ?? [{ json: {} }];
  const rec = recorder();
  rec.lose = opts.lose;
  const run = await runInEngine({
    type: new StoreSuppliers(),
    node: {
      name: 'Store Suppliers',
      type: 'n8n-nodes-store-suppliers.storeSuppliers',
      parameters: asExpressions(parameters, items.length),
      ...(opts.retryOnFail ? { retryOnFail: true, maxTries: opts.retryOnFail.maxTries, waitBetweenTries: 0 } : {}),
      ...(opts.onError ? { onError: opts.onError } : opts.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
    },
    items,
    credentials: { baseUrl: credentials.baseUrl, apiKey: credentials.apiKey },
    rec,
  });
  return { run, rec };
}

/** Runs the Store Suppliers node once over the given items, in n8n's engine. */
export async function runNode(credentials: Credentials, parameters: Record<string, Param>, opts: RunOptions = {}): Promise<Run> {
  const { run, rec } = await runOnce(credentials, parameters, opts);
  if (run.error) throw Object.assign(new Error(`The node failed: ${run.error.message}`), { cause: run.error });
  const [out = [], errorOutput = []] = run.outputs;
  return { out, json: out.map((i) => i.json), errorOutput, rec };
}

/** Runs the node and answers the error its run ended with (as n8n keeps it in the run data). */
export async function runNodeError(
  credentials: Credentials,
  parameters: Record<string, Param>,
  opts: { items?: INodeExecutionData[] } = {},
): Promise<{ error: any; rec: Recorder }> {
  const { run, rec } = await runOnce(credentials, parameters, opts);
  if (!run.error) throw new Error('The node did not fail');
  return { error: run.error, rec };
}

/**
 * The supplier order with the given id once `ready` holds for it. Submit and retry may answer while the
 * dispatch job is still between steps (a payNow order shows `submitted` for a moment before its payment
 * fails), so set-up steps that need a settled order read it until it is.
 */
export async function supplierOrderWhen(svc: ServiceClient, shop: Shop, id: string, ready: (so: any) => boolean, what: string): Promise<any> {
  return await eventually(
    async () => {
      const res = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key });
      return res.status === 200 && ready(res.body.result) ? res.body.result : undefined;
    },
    30000,
    what,
  );
}

/** Places a store order and submits its supplier part with payNow; answers the supplier order once it waits for review. */
export async function pausedOrder(svc: ServiceClient, shop: Shop, opts: { productIndex?: number } = {}): Promise<any> {
  const order = await placeOrder(svc, shop, opts);
  const res = await submit(svc, shop, order.id, { payNow: true });
  if (res.status >= 300) throw new Error(`submit answered ${res.status}: ${res.text}`);
  return await supplierOrderWhen(svc, shop, res.body.result._id, (so) => so.status === 'needsReview', 'the supplier order to pause');
}
