/**
 * The trigger in webhook mode, in a running n8n (instant-paused-alert.json, activated before `n8n start`):
 * its activation subscribed the workflow's webhook to supplierOrder.paused through the service, a new
 * pause reaches the workflow (and its post reaches the receiver) within 2 s of the pause, and a delivery
 * with a forged signature is answered 401 and starts nothing.
 */
const MAX_LATENCY_MS = 2000;

export async function instantChecks(ctx) {
  const { check, expect, api, control, account, store, receiver, submitPaused, pausedAt, n8nPort, resultExtras, waitFor } = ctx;
  const webhookBase = `http://127.0.0.1:${n8nPort}/webhook/`;

  const subscription = await check('webhook mode: activating the workflow subscribed its n8n webhook to supplierOrder.paused', async () => {
    const subs = await api('GET', `/api/store-suppliers/${store.id}/event-subscriptions`);
    const ours = (subs?.items ?? []).filter((s) => String(s.url).startsWith(webhookBase));
    expect(ours.length === 1, 'one subscription points at the n8n webhook', subs);
    expect(ours[0].enabled === true && ours[0].eventTypes.join() === 'supplierOrder.paused', 'enabled, for supplierOrder.paused', ours[0]);
    expect(!('secret' in ours[0]), 'the list does not show the secret', ours[0]);
    return ours[0];
  });
  if (!subscription) return;

  await check(`webhook mode: a new pause reaches the workflow within ${MAX_LATENCY_MS / 1000} s, once, with the paused supplier order`, async () => {
    await control('POST', `/accounts/${account.accountId}/balance`, { balanceMinor: 0 });
    const so = await submitPaused();
    const post = await waitFor(
      'the pause to be posted by the webhook-mode workflow',
      () => receiver.instant.find((r) => r.body?.event?.data?._id === so._id),
      20000,
      50,
    );
    const latency = post.at - Date.parse(pausedAt(so));
    resultExtras.webhookPauseLatencyMs = latency;
    expect(latency <= MAX_LATENCY_MS, `posted ${latency} ms after the pause`, { pausedAt: pausedAt(so), postedAt: new Date(post.at).toISOString() });
    const event = post.body.event;
    expect(
      event.type === 'supplierOrder.paused' && event.storeId === store.id && event.data.reviewReason === 'insufficientBalance',
      'the item is the supplierOrder.paused event',
      event,
    );
    expect(String(post.body.text).includes('insufficientBalance'), 'the post names the review reason', post.body.text);
    await new Promise((r) => setTimeout(r, 3000));
    expect(
      receiver.instant.filter((r) => r.body?.event?.data?._id === so._id).length === 1,
      'posted once',
      receiver.instant.map((r) => r.body?.event?.id),
    );
  });

  await check('webhook mode: a delivery with a forged signature is answered 401 and starts nothing', async () => {
    const before = receiver.instant.length;
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'supplierOrder.paused',
      createdAt: new Date().toISOString(),
      storeId: store.id,
      data: { _id: 'forged', reviewReason: 'forged' },
    });
    const res = await fetch(subscription.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${Buffer.from('not the signature, 32 bytes long').toString('base64')}`,
      },
      body,
    });
    const text = await res.text();
    expect(res.status === 401, `n8n answered ${res.status}`, text);
    await new Promise((r) => setTimeout(r, 3000));
    expect(receiver.instant.length === before, 'nothing was posted', receiver.instant.slice(before));
  });
}
