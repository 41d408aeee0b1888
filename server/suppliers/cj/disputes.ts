/**
 * CJ disputes (API 2.0, "7 Dispute"; docs/suppliers/cj.md, "Disputes"): the lines open to one (disputeProducts), the
 * confirm info (reasons, the most CJ refunds, the results it offers), create under the service's own key
 * (businessDisputeId), found again through the order's dispute list by that key, read, cancelled. CJ prices in USD.
 */
import type { ClaimInput, ClaimLine, ClaimTerms, SupplierCallContext, SupplierClaimSnapshot } from '../adapter';
import { asObj, optionalText } from '../http';
import type { CjClient } from './client';
import { cents, CURRENCY, list } from './readers';

type Row = Record<string, unknown>;
const EXPECT: Record<string, 'refund' | 'reship'> = { '1': 'refund', '2': 'reship' };
/** Our reasons to the words CJ's reasons use (its ids are read from the confirm info, never assumed). */
const REASON_WORDS: Record<ClaimInput['reason'], RegExp> = {
  notReceived: /not\s*receiv/i,
  damaged: /damag/i,
  wrongItem: /wrong/i,
  missingItems: /missing/i,
  quality: /quality/i,
};

async function products(client: CjClient, ctx: SupplierCallContext, orderId: string): Promise<Row[]> {
  const answer = await client.request(ctx, { method: 'GET', path: '/disputes/disputeProducts', query: { orderId } }, 'order', { supplierOrderId: orderId });
  return client.read(answer, (data) =>
    list(asObj(data, 'dispute').productInfoList ?? [], 'dispute.productInfoList').map((r, i) => asObj(r, `dispute.productInfoList[${i}]`)),
  );
}

/** Our lines as CJ's (its line item, the quantity, its price), from its products open to a dispute. */
function cjLines(rows: Row[], lines: ClaimLine[]) {
  return lines.map((l) => {
    const row = rows.find((r) => optionalText(r, 'cjVariantId') === l.variantId);
    return { line: l, row, lineItemId: row ? optionalText(row, 'lineItemId') : null, price: row ? cents(row.price, 'dispute.price') : 0 };
  });
}

async function confirm(client: CjClient, ctx: SupplierCallContext, orderId: string, lines: ReturnType<typeof cjLines>) {
  const body = {
    orderId,
    productInfoList: lines
      .filter((l) => l.lineItemId)
      .map((l) => ({ lineItemId: l.lineItemId, quantity: l.line.quantity, price: Number((l.price / 100).toFixed(2)) })),
  };
  const answer = await client.request(ctx, { method: 'POST', path: '/disputes/disputeConfirmInfo', body }, 'order', { supplierOrderId: orderId });
  return client.read(answer, (data) => asObj(data, 'confirm'));
}

const expectations = (raw: unknown): Array<'refund' | 'reship'> =>
  (Array.isArray(raw) ? raw : [])
    .map((x) => EXPECT[String(typeof x === 'object' && x ? ((x as Row).expectType ?? (x as Row).value ?? '') : x)])
    .filter((x): x is 'refund' | 'reship' => !!x);

export async function claimTerms(client: CjClient, ctx: SupplierCallContext, orderId: string, lines: ClaimLine[]): Promise<ClaimTerms> {
  const mine = cjLines(await products(client, ctx, orderId), lines);
  const terms = mine.map((l) => ({
    variantId: l.line.variantId,
    openQuantity: l.row ? Number(l.row.quantity ?? 0) : 0,
    canChoose: !!l.row && l.row.canChoose !== false,
    unitPrice: { amountMinor: l.price, currency: CURRENCY },
  }));
  if (!mine.some((l) => l.lineItemId && l.row?.canChoose !== false)) return { lines: terms, maxAmount: null, expectations: [] };
  const info = await confirm(client, ctx, orderId, mine);
  return {
    lines: terms,
    maxAmount: info.maxAmount === undefined || info.maxAmount === null ? null : { amountMinor: cents(info.maxAmount, 'confirm.maxAmount'), currency: CURRENCY },
    expectations: expectations(info.expectResultOptionList),
  };
}

/** products, then confirm (the reason's id), then create; CJ's answer may not carry the id: the list by order finds it by our key. */
export async function openDispute(client: CjClient, ctx: SupplierCallContext, input: ClaimInput): Promise<SupplierClaimSnapshot> {
  const orderId = input.supplierOrderId;
  const mine = cjLines(await products(client, ctx, orderId), input.lines);
  const info = await confirm(client, ctx, orderId, mine);
  const reasons = list(info.disputeReasonList ?? [], 'confirm.disputeReasonList').map((r) => asObj(r, 'confirm.reason'));
  const reason = reasons.find((r) => REASON_WORDS[input.reason].test(String(r.reasonName ?? ''))) ?? reasons[0];
  const images = input.evidence.filter((u) => !/\.(mp4|mov|webm)(\?|$)/i.test(u));
  const body = {
    orderId,
    businessDisputeId: input.claimKey,
    disputeReasonId: reason?.disputeReasonId,
    expectType: input.expectation === 'refund' ? 1 : 2,
    refundType: 1,
    messageText: input.message.slice(0, 500),
    imageUrl: images,
    videoUrl: input.evidence.filter((u) => !images.includes(u)),
    productInfoList: mine
      .filter((l) => l.lineItemId)
      .map((l) => ({ lineItemId: l.lineItemId, quantity: l.line.quantity, price: Number((l.price / 100).toFixed(2)) })),
  };
  await client.request(ctx, { method: 'POST', path: '/disputes/create', body }, 'order', { supplierOrderId: orderId });
  const found = await findDispute(client, ctx, orderId, input.claimKey);
  if (!found) throw new Error('CJ took the dispute but does not list it by its key');
  return found;
}

async function disputes(client: CjClient, ctx: SupplierCallContext, orderId: string, disputeId?: string): Promise<Row[]> {
  const answer = await client.request(
    ctx,
    { method: 'GET', path: '/disputes/getDisputeList', query: { orderId, disputeId, pageNum: '1', pageSize: '50' } },
    'order',
    { supplierOrderId: orderId },
  );
  return client.read(answer, (data) =>
    data === null ? [] : list(asObj(data, 'disputes').list ?? [], 'disputes.list').map((r, i) => asObj(r, `disputes.list[${i}]`)),
  );
}

/** A dispute row as a claim: decided once `finallyDeal` says (a reissue only once CJ names its resend order). */
function snapshot(r: Row): SupplierClaimSnapshot {
  const status = String(r.status ?? '');
  const deal = Number(r.finallyDeal ?? 0);
  const resend = optionalText(r, 'resendOrderCode');
  const decision: SupplierClaimSnapshot['decision'] =
    deal === 1
      ? { kind: 'refund', amount: { amountMinor: cents(r.money ?? 0, 'dispute.money'), currency: CURRENCY } }
      : deal === 2 && resend
        ? { kind: 'reship', supplierOrderId: resend }
        : deal === 3
          ? { kind: 'rejected', message: `CJ rejected the dispute${r.disputeReason ? ` (${String(r.disputeReason)})` : ''}.` }
          : null;
  return {
    supplierClaimId: String(r.id),
    claimKey: optionalText(r, 'businessDisputeId'),
    supplierStatus: status,
    status: /cancel/i.test(status) ? 'cancelled' : decision ? 'decided' : 'open',
    decision,
  };
}

export async function findDispute(client: CjClient, ctx: SupplierCallContext, orderId: string, claimKey: string): Promise<SupplierClaimSnapshot | null> {
  const row = (await disputes(client, ctx, orderId)).find((r) => optionalText(r, 'businessDisputeId') === claimKey);
  return row ? snapshot(row) : null;
}

export async function getDispute(client: CjClient, ctx: SupplierCallContext, orderId: string, disputeId: string): Promise<SupplierClaimSnapshot> {
  const row = (await disputes(client, ctx, orderId, disputeId)).find((r) => String(r.id) === disputeId);
  if (!row) throw new Error(`CJ does not list dispute ${disputeId} of its order`);
  return snapshot(row);
}

export async function cancelDispute(client: CjClient, ctx: SupplierCallContext, orderId: string, disputeId: string): Promise<SupplierClaimSnapshot> {
  await client.request(ctx, { method: 'POST', path: '/disputes/cancel', body: { orderId, disputeId } }, 'order', { supplierOrderId: orderId });
  return getDispute(client, ctx, orderId, disputeId);
}
