/**
 * Checks of the node in a real n8n beyond the example workflows (run by run-n8n.mjs, which passes the
 * helpers): errors routed as n8n routes them under each On Error setting, the Base URL named in node
 * runs, and a store order taken from creation to its supplier part with the node alone.
 */

const NODE = 'n8n-nodes-store-suppliers.storeSuppliers';
const credential = (id) => ({ storeSuppliersApi: { id, name: id } });
const rl = (value) => ({ __rl: true, mode: 'id', value });

/** Manual trigger → one Store Suppliers node (→ optional nodes on its outputs). */
export function oneNodeWorkflow(id, { parameters, credentialId, onError, outputs = [] }) {
  const nodes = [
    { id: `${id}-start`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      id: `${id}-node`,
      name: 'Store Suppliers',
      type: NODE,
      typeVersion: 1,
      position: [240, 0],
      parameters,
      credentials: credential(credentialId),
      ...(onError ? { onError } : {}),
    },
    ...outputs.map((name, i) => ({ id: `${id}-out${i}`, name, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [480, i * 200], parameters: {} })),
  ];
  const connections = { Start: { main: [[{ node: 'Store Suppliers', type: 'main', index: 0 }]] } };
  if (outputs.length) connections['Store Suppliers'] = { main: outputs.map((name) => [{ node: name, type: 'main', index: 0 }]) };
  return { id, name: id, active: false, nodes, connections, settings: {} };
}

/** The json of each output of a node's first run: [[...output 0], [...output 1]]. */
const outputsOf = (run, node) => (run.raw?.data?.resultData?.runData?.[node]?.[0]?.data?.main ?? []).map((items) => (items ?? []).map((i) => i.json));
const errorText = (run) => {
  const e = run.raw?.data?.resultData?.error;
  return e ? `${e.message ?? ''} ${e.description ?? ''}` : `${run.stdout ?? ''} ${run.stderr ?? ''}`;
};

/** Runs a batch once, however many checks ask for it first. */
const once = (fn) => {
  let started;
  return () => (started ??= fn());
};

export async function nodeRunChecks(ctx) {
  const { check, expect, api, store, connId, placeConfirmedOrder, runWorkflows, importCredentials, credentialId, serviceUrl, freePort } = ctx;
  const groupKey = `supplier:${connId}`;
  const submitParams = (orderId) => ({ resource: 'supplierOrder', operation: 'submit', store: rl(store.id), orderId, connection: rl(connId), options: {} });

  // A cost limit of one cent: every submit pauses at once with costAboveLimit (nothing is sent). The three runs, one
  // per On Error setting, each on an order of its own, run side by side.
  await api('PUT', `/api/store-suppliers/${store.id}/${connId}/automation`, { costLimit: { amountMinor: 1, currency: 'USD' } });
  const orders = {};
  const routed = once(async () => {
    for (const id of ['ssRouteErrOut', 'ssRouteRegular', 'ssRouteStop']) orders[id] = await placeConfirmedOrder();
    return await runWorkflows([
      oneNodeWorkflow('ssRouteErrOut', {
        parameters: submitParams(orders.ssRouteErrOut.id),
        credentialId,
        onError: 'continueErrorOutput',
        outputs: ['Sent', 'Needs Review'],
      }),
      oneNodeWorkflow('ssRouteRegular', {
        parameters: submitParams(orders.ssRouteRegular.id),
        credentialId,
        onError: 'continueRegularOutput',
        outputs: ['Next'],
      }),
      oneNodeWorkflow('ssRouteStop', { parameters: submitParams(orders.ssRouteStop.id), credentialId }),
    ]);
  });
  try {
    await check(
      'a paused order under On Error "Continue (using error output)" arrives on the error output with the supplier order and review reason',
      async () => {
        const run = (await routed()).ssRouteErrOut;
        const order = orders.ssRouteErrOut;
        expect(run.code === 0 && !run.error, 'the workflow ran', run.error ?? run.stderr?.slice(-1500));
        const [success, failure] = outputsOf(run, 'Store Suppliers');
        expect((success ?? []).length === 0, 'nothing on the success output', success);
        expect(failure?.length === 1, 'one item on the error output', failure);
        const [item] = failure;
        const rawItems = run.raw?.data?.resultData?.runData?.['Store Suppliers']?.[0]?.data?.main;
        // n8n 1.x routes only a json of error and message to the error output (2.x also details): the pause rides under message.
        const so = item.message?.supplierOrder;
        expect(
          so?.status === 'needsReview' && so.reviewReason === 'costAboveLimit' && so.orderId === order.id,
          'it carries the paused supplier order',
          rawItems,
        );
        expect(
          typeof item.error === 'string' &&
            item.error.includes('costAboveLimit') &&
            item.message.reviewReason === 'costAboveLimit' &&
            typeof item.message.retryable === 'boolean',
          'and the message string, with the review reason and retryable',
          item,
        );
        expect(
          outputsOf(run, 'Needs Review')[0]?.length === 1 && !run.raw.data.resultData.runData.Sent,
          'the node on the error output ran, the one on the success output did not',
        );
      },
    );

    await check(
      'under "Continue (regular output)" the paused order stays on the success output as { error, reviewReason, retryable, supplierOrder }',
      async () => {
        const run = (await routed()).ssRouteRegular;
        expect(run.code === 0 && !run.error, 'the workflow ran', run.error);
        const [success, failure] = outputsOf(run, 'Store Suppliers');
        expect(success?.length === 1 && !failure?.length, 'one item, on the success output', outputsOf(run, 'Store Suppliers'));
        expect(
          Object.keys(success[0]).sort().join(',') === 'error,retryable,reviewReason,supplierOrder' &&
            typeof success[0].error === 'string' &&
            success[0].reviewReason === 'costAboveLimit' &&
            success[0].supplierOrder.reviewReason === 'costAboveLimit',
          'the item is { error: message, reviewReason, retryable, supplierOrder }',
          success[0],
        );
      },
    );

    await check('under "Stop Workflow" a paused order fails the run, naming the review reason', async () => {
      const run = (await routed()).ssRouteStop;
      const order = orders.ssRouteStop;
      expect(run.code !== 0 || run.error, 'the run failed', run.raw?.data?.resultData);
      expect(/Supplier order paused for review: costAboveLimit/.test(errorText(run)), 'with the pause as its error', errorText(run).slice(0, 1500));
      const so = (await api('GET', `/api/store-suppliers/${store.id}/orders?orderId=${order.id}`)).items[0];
      expect(so?.status === 'needsReview' && so.fulfilmentGroupKey === groupKey, 'the supplier order waits for review', so);
    });
  } finally {
    await api('PUT', `/api/store-suppliers/${store.id}/${connId}/automation`, { costLimit: null });
    // The trigger checks that follow count what waits for review: these pauses must not be among them.
    const waitingNow = (await api('GET', `/api/store-suppliers/${store.id}/orders?needsReview=true&pageSize=100`)).items;
    for (const so of waitingNow.filter((o) => o.reviewReason === 'costAboveLimit')) {
      await api('POST', `/api/store-suppliers/${store.id}/orders/${so._id}/cancel`, {});
    }
  }

  // The Base URL runs and the store order's run, side by side.
  const nobody = `http://127.0.0.1:${await freePort()}`;
  const others = once(async () => {
    await importCredentials([
      { id: 'StoreSuppliers02', name: 'StoreSuppliers02', type: 'storeSuppliersApi', data: { apiKey: ctx.apiKey, baseUrl: nobody } },
      { id: 'StoreSuppliers03', name: 'StoreSuppliers03', type: 'storeSuppliersApi', data: { apiKey: ctx.apiKey, baseUrl: `${serviceUrl}/api` } },
    ]);
    const params = { resource: 'connection', operation: 'getAll', store: rl(store.id), returnAll: true };
    return await runWorkflows([
      oneNodeWorkflow('ssBaseOffline', { parameters: params, credentialId: 'StoreSuppliers02' }),
      oneNodeWorkflow('ssBaseApi', { parameters: params, credentialId: 'StoreSuppliers03' }),
      storeOrderWorkflow(ctx),
    ]);
  });

  await check('node runs name the Base URL: nothing listening there, or a Base URL ending in /api', async () => {
    const { ssBaseOffline: offline, ssBaseApi: withApi } = await others();
    expect(
      errorText(offline).includes(`Could not reach Store Suppliers at ${nobody}`),
      'an address where nothing answers names the Base URL',
      errorText(offline).slice(0, 1500),
    );
    const said = errorText(withApi);
    expect(
      said.includes(`No Store Suppliers API answers at ${serviceUrl}/api`) && !said.includes('Check the IDs'),
      'a Base URL ending in /api says so, not "Check the IDs"',
      said.slice(0, 1500),
    );
  });

  await check('a store order from creation to its supplier part with the node alone: create, confirm, record payment, get, get many (simplified)', async () => {
    const { productId } = ctx;
    const run = (await others()).ssStoreOrder;
    expect(run.code === 0 && !run.error, 'the workflow ran', run.error ?? run.stderr?.slice(-1500));
    const [created] = outputsOf(run, 'Store Suppliers')[0];
    const [confirmed] = outputsOf(run, 'Confirm')[0];
    const [paid] = outputsOf(run, 'Payment')[0];
    const [got] = outputsOf(run, 'Get')[0];
    expect(
      created?.status === 'pending' && created.fulfilmentGroups.some((g) => g.groupKey === `supplier:${connId}`),
      'created, with a part for the connection',
      created,
    );
    expect(confirmed?.id === created.id && confirmed.status !== 'pending', 'confirmed', confirmed);
    expect(paid?.markedPaidAt && paid.payments?.some((p) => p.source === 'manual' && p.reference === 'e2e-1'), 'the manual payment recorded', paid);
    expect(got?.id === created.id && Array.isArray(got.items) && Array.isArray(got.supplierOrders), 'Get answers the whole order (Simplify off)', got);
    const many = outputsOf(run, 'Many')[0];
    expect(
      many.some((o) => o.id === created.id) && many.every((o) => !('destination' in o) && !('items' in o)),
      'Get Many answers simplified orders',
      many.slice(0, 2),
    );
    const products = outputsOf(run, 'Products')[0];
    expect(
      products.some((p) => p.id === productId) && products.every((p) => !('description' in p)),
      'Store Product Get Many finds the imported product',
      products.slice(0, 2),
    );
    return created;
  });
}

/** Create → confirm → record payment → get → get many (simplified) → store products, each a Store Suppliers node. */
function storeOrderWorkflow(ctx) {
  const { store, credentialId, productId, variantId } = ctx;
  const wf = oneNodeWorkflow('ssStoreOrder', {
    parameters: {
      resource: 'storeOrder',
      operation: 'create',
      store: rl(store.id),
      items: { item: [{ productId, variantId, quantity: 1 }] },
      destination: JSON.stringify(ctx.address),
      paymentMethod: 'manual',
      contractModel: 'standard',
    },
    credentialId,
  });
  const step = (name, x, parameters) => ({
    id: `ssStoreOrder-${name}`,
    name,
    type: NODE,
    typeVersion: 1,
    position: [240 * x, 0],
    parameters,
    credentials: credential(credentialId),
  });
  const orderRef = { __rl: true, mode: 'id', value: "={{ $('Store Suppliers').item.json.id }}" };
  wf.nodes.push(
    step('Confirm', 2, { resource: 'storeOrder', operation: 'confirm', store: rl(store.id), storeOrderId: orderRef }),
    step('Payment', 3, {
      resource: 'storeOrder',
      operation: 'markPaid',
      store: rl(store.id),
      storeOrderId: orderRef,
      additionalFields: { reference: 'e2e-1' },
    }),
    step('Get', 4, { resource: 'storeOrder', operation: 'get', store: rl(store.id), storeOrderId: orderRef }),
    step('Many', 5, { resource: 'storeOrder', operation: 'getAll', store: rl(store.id), returnAll: true, filters: {} }),
    step('Products', 6, { resource: 'storeProduct', operation: 'getAll', store: rl(store.id), returnAll: true, filters: {} }),
  );
  wf.connections['Store Suppliers'] = { main: [[{ node: 'Confirm', type: 'main', index: 0 }]] };
  for (const [from, to] of [
    ['Confirm', 'Payment'],
    ['Payment', 'Get'],
    ['Get', 'Many'],
    ['Many', 'Products'],
  ])
    wf.connections[from] = { main: [[{ node: to, type: 'main', index: 0 }]] };
  wf.nodes.find((n) => n.name === 'Many').executeOnce = true;
  wf.nodes.find((n) => n.name === 'Products').executeOnce = true;
  return wf;
}
