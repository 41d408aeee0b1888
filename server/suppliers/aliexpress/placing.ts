/**
 * Placing an order at AliExpress: each item's product read for the order's country (its `sku_attr`, and whether it is
 * sold there), each item's shipping service chosen from a freight quote by the connection's rule, then one create with
 * our number as `out_order_id` (AliExpress's own duplicate guard, for 24 hours). The ids it answers are kept by the
 * service under our number; a repeated number is read back, never created again.
 */
import type { Destination, ShippingQuote, SupplierCallContext, SupplierOrderInput, SupplierOrderSnapshot } from '../adapter';
import { isCountryCode } from '../countries';
import { SupplierError } from '../errors';
import { asObj, cleanSupplierWords, Obj, optionalText, ShapeError } from '../http';
import { chooseShipping, CHEAPEST, describeRule, type ShippingOption } from '../shipping';
import type { AeClient } from './client';
import { createRefusalOf, REPEATED_ORDER } from './codes';
import { setting } from './description';
import { joinIds, justCreated, splitIds } from './orders';
import { productFor } from './products';
import { AeSku, readFreight, splitVariantId } from './readers';

const truthy = (v: unknown) => v === true || v === 'true';

/** AliExpress's address fields; a phone written "+<code> <number>" gives its country code. CPF (Brazil) is not asked for. */
function addressOf(d: Destination, country: string): Record<string, string> {
  const phone = (d.phone ?? '').trim();
  const m = /^\+(\d{1,3})[\s-]+(.+)$/.exec(phone);
  return {
    address: d.line1,
    address2: d.line2 ?? '',
    city: d.city,
    province: d.region || d.city,
    country,
    zip: d.postalCode,
    contact_person: d.name,
    full_name: d.name,
    mobile_no: (m ? m[2] : phone).replace(/\D/g, ''),
    phone_country: m ? `+${m[1]}` : '',
  };
}

/** The order ids of a create answer, from its text: they can pass 2^53, which JSON numbers would round. */
function orderIdsOf(result: Obj, text: string): string[] {
  const list = result.order_list;
  if (list === undefined || list === null) return [];
  const raw = /"order_list"\s*:\s*(?:\{\s*"number"\s*:\s*)?\[([^\]]*)\]/.exec(text);
  if (!raw) throw new ShapeError('result.order_list is not a list of order ids');
  const ids = raw[1]
    .split(',')
    .map((s) => s.trim().replace(/^"|"$/g, ''))
    .filter(Boolean);
  if (!ids.every((id) => /^\d{1,30}$/.test(id))) throw new ShapeError('result.order_list holds something other than order ids');
  return ids;
}

async function keep(ctx: SupplierCallContext, orderNumber: string, ids: string[]): Promise<void> {
  // Not kept this time (the database may be away): the order is still answered, and dispatch records its ids.
  await ctx.orderNumbers?.remember(orderNumber, joinIds(ids)).catch(() => undefined);
}

/** The service the rule picks from the item's freight quote (`aliexpress.ds.freight.query`); none fits: destinationUnsupported. */
async function serviceFor(
  ae: AeClient,
  ctx: SupplierCallContext,
  item: { productId: string; skuId: string; quantity: number },
  country: string,
  subject: Record<string, string>,
): Promise<ShippingOption> {
  const rule = ctx.ordering?.shippingMethod ?? CHEAPEST;
  // Built by hand: the product id is digits that may pass 2^53.
  const req = `{"quantity":${item.quantity},"shipToCountry":${JSON.stringify(country)},"productId":${item.productId},"selectedSkuId":${JSON.stringify(item.skuId)},"language":${JSON.stringify(setting(ctx, 'language', 'en'))},"locale":${JSON.stringify(setting(ctx, 'language', 'en'))},"currency":${JSON.stringify(setting(ctx, 'currency', 'USD'))}}`;
  const body = await ae.call(ctx, 'aliexpress.ds.freight.query', { queryDeliveryReq: req }, 'order', subject);
  const result = ae.read('aliexpress.ds.freight.query', () => asObj(body.result, 'result'));
  const code = optionalText(result, 'code');
  if (result.success === false || result.success === 'false' || code === '505') {
    throw new SupplierError(
      'destinationUnsupported',
      `AliExpress does not deliver this item to ${country} (${code ?? 'no code'})${result.msg ? `: ${cleanSupplierWords(String(result.msg), [])}` : ''}`,
      subject,
    );
  }
  const options = ae.read('aliexpress.ds.freight.query', () => readFreight(result, setting(ctx, 'currency', 'USD')));
  const chosen = chooseShipping(options, rule);
  if (!chosen) {
    const offered = options.length ? ` (it offers ${options.map((o) => o.service).join(', ')})` : '';
    throw new SupplierError('destinationUnsupported', `AliExpress does not offer ${describeRule(rule)} for this item to ${country}${offered}`, subject);
  }
  return chosen;
}

/**
 * Each item's freight quote, the service picked by the connection's rule: AliExpress ships each item by a service of
 * its own, so the quote is their sum, in the connection's currency, with each item's service for the create.
 */
export async function quoteShipping(ae: AeClient, ctx: SupplierCallContext, input: Pick<SupplierOrderInput, 'items' | 'destination'>): Promise<ShippingQuote> {
  const country = input.destination.country.toUpperCase();
  if (!isCountryCode(country)) throw new SupplierError('destinationUnsupported', `${country} is not a country AliExpress knows`);
  const chosen: ShippingOption[] = [];
  for (const item of input.items) {
    const ids = splitVariantId(item.variantId);
    if (!ids) throw new SupplierError('variantUnavailable', 'Not an AliExpress variant id', { variantId: item.variantId });
    chosen.push(await serviceFor(ae, ctx, { ...ids, quantity: item.quantity }, country, { variantId: item.variantId }));
  }
  const days = chosen.map((o) => o.maxDays);
  return {
    service: [...new Set(chosen.map((o) => o.service))].join(', '),
    services: chosen.map((o) => o.service),
    cost: { amountMinor: chosen.reduce((n, o) => n + o.costMinor, 0), currency: setting(ctx, 'currency', 'USD') },
    maxDays: days.some((d) => d === null) ? null : Math.max(...(days as number[])),
  };
}

export async function placeOrder(ae: AeClient, ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot> {
  const country = input.destination.country.toUpperCase();
  if (!isCountryCode(country)) throw new SupplierError('destinationUnsupported', `${country} is not a country AliExpress knows`);
  if (!input.items.length) throw new SupplierError('refused', 'An order needs at least one item');
  const skusOf = new Map<string, AeSku[]>();
  const productItems: Array<Record<string, unknown>> = [];
  for (const item of input.items) {
    const subject = { variantId: item.variantId };
    const ids = splitVariantId(item.variantId);
    if (!ids) throw new SupplierError('variantUnavailable', 'Not an AliExpress variant id', subject);
    let skus = skusOf.get(ids.productId);
    if (!skus) {
      skus = (await productFor(ae, ctx, ids.productId, country, 'order')).skus;
      skusOf.set(ids.productId, skus);
    }
    const sku = skus.find((s) => s.variant.id === item.variantId);
    if (!sku || !sku.variant.available) throw new SupplierError('variantUnavailable', 'AliExpress no longer offers this variant', subject);
    // The service quoted before the order, where there was a quote; else the rule's pick now.
    const quoted = input.shipping?.services?.[input.items.indexOf(item)];
    const service = quoted ?? (await serviceFor(ae, ctx, { ...ids, quantity: item.quantity }, country, subject)).service;
    productItems.push({ product_id: ids.productId, product_count: item.quantity, sku_attr: sku.skuAttr, logistics_service_name: service, order_memo: '' });
  }
  const place = { out_order_id: input.orderNumber, logistics_address: addressOf(input.destination, country), product_items: productItems };
  const extend = {
    payment: { pay_currency: setting(ctx, 'currency', 'USD'), try_to_pay: String(!!input.paymentDue) },
    trade_extra_param: { business_model: 'retail' },
  };
  const subject = input.items.length === 1 ? { variantId: input.items[0].variantId } : undefined;
  // Never retried here: after a time-out the order may exist; the retry's create meets AliExpress's duplicate guard.
  const { body, text } = await ae.callWithText(
    ctx,
    'aliexpress.ds.order.create',
    { param_place_order_request4_open_api_d_t_o: JSON.stringify(place), ds_extend_request: JSON.stringify(extend) },
    'order',
    subject,
  );
  const { result, ids } = ae.read('aliexpress.ds.order.create', () => {
    const r = asObj(body.result, 'result');
    return { result: r, ids: orderIdsOf(r, text) };
  });
  if (truthy(result.is_success)) {
    if (!ids.length) throw new SupplierError('unavailable', 'AliExpress answered the create with no order id');
    await keep(ctx, input.orderNumber, ids);
    return justCreated(input.orderNumber, ids);
  }
  const code = optionalText(result, 'error_code') ?? '';
  if (code === REPEATED_ORDER) {
    const known = ids.length ? ids : splitIds((await ctx.orderNumbers?.recall(input.orderNumber)) ?? '');
    if (known && known.length) {
      await keep(ctx, input.orderNumber, known);
      return justCreated(input.orderNumber, known);
    }
    throw new SupplierError(
      'unavailable',
      `AliExpress already has an order with this number (${REPEATED_ORDER}) but did not say which; find it on aliexpress.com before trying again`,
      subject,
    );
  }
  throw createRefusalOf(code, cleanSupplierWords(optionalText(result, 'error_msg') ?? '', [...Object.values(ctx.credentials)]), subject);
}
