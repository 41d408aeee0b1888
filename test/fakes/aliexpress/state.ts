/**
 * The AliExpress-format server's state: the app it serves, the catalogue, sign-in, orders, the failures /control
 * injects, and what it received. `business()` answers one `/sync` call as AliExpress would (the `result` inside
 * `<method>_response`), or throws the platform's refusal.
 */
import { decimal, FakeProduct, freightOptions, seedCatalogue } from './catalogue';
import { CreateRecord, FakeOrders } from './orders';
import { Buyer, FakeSignIn, SignInLifetimes } from './signin';
import { AeFail } from './verify';

export interface FakeAeOptions extends SignInLifetimes {
  appKey: string;
  appSecret: string;
  /** AliExpress: an order is readable about 10 s after it is created. */
  orderReadableAfterMs: number;
}

/** One injected failure: `error_response` with this code, or (for order.create) the result's `error_code`. */
export interface FailRule {
  method: string;
  code: string;
  subCode?: string;
  message?: string;
  count: number;
  /** order.create only: answer the code as the result's `error_code` (is_success false), as AliExpress refuses orders. */
  inResult?: boolean;
}

export interface Faults {
  failNext: FailRule[];
  /** The next N calls (any method) answer ApiCallLimit. */
  callLimitNext: number;
  /** The next N creates make the order, then hold the answer past the caller's time limit. */
  timeoutAfterCreateNext: number;
  /** Answer every call with HTTP 503. */
  unavailable: boolean;
  /** A REPEATED_ORDER_ERROR answer leaves out the ids of the order it repeats. */
  repeatedWithoutIds: boolean;
}

export const noFaults = (): Faults => ({ failNext: [], callLimitNext: 0, timeoutAfterCreateNext: 0, unavailable: false, repeatedWithoutIds: false });

/** Raised by a create that must not answer (the time-out after create). */
export class HoldAnswer extends Error {}

type Params = Record<string, string>;

function json(value: string | undefined, name: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(value ?? '');
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* answered below */
  }
  throw new AeFail('MissingParameter', `${name} is missing or not a JSON object`, 'isv.invalid-parameter');
}

export class FakeAeState {
  readonly products: FakeProduct[];
  readonly signIn: FakeSignIn;
  readonly orders: FakeOrders;
  readonly unserved = new Set<string>();
  faults: Faults = noFaults();
  readonly received = { calls: {} as Record<string, number>, creates: [] as CreateRecord[], refusals: {} as Record<string, number> };

  constructor(
    readonly options: FakeAeOptions,
    seed: number,
    productCount: number,
  ) {
    this.products = seedCatalogue(seed, productCount);
    this.signIn = new FakeSignIn(options);
    this.orders = new FakeOrders((id) => this.product(id));
  }

  product(id: string): FakeProduct | undefined {
    return this.products.find((p) => p.productId === id);
  }

  refused(code: string): void {
    this.received.refusals[code] = (this.received.refusals[code] ?? 0) + 1;
  }

  private take(method: string, inResult: boolean): FailRule | null {
    const rule = this.faults.failNext.find((r) => (r.method === method || r.method === '*') && !!r.inResult === inResult && r.count > 0);
    if (rule) rule.count--;
    return rule ?? null;
  }

  /** The injected `error_response` for this call, if any (consumed). */
  injected(method: string): FailRule | null {
    if (this.faults.callLimitNext > 0) {
      this.faults.callLimitNext--;
      return { method, code: 'ApiCallLimit', message: 'The request has exceeded the limit, ban will last 1 seconds', count: 1 };
    }
    return this.take(method, false);
  }

  business(method: string, p: Params, buyer: Buyer, now: number): unknown {
    this.received.calls[method] = (this.received.calls[method] ?? 0) + 1;
    switch (method) {
      case 'aliexpress.ds.text.search':
        return this.search(p);
      case 'aliexpress.ds.product.get':
        return { result: this.productAnswer(p.product_id, p.ship_to_country || 'US', p.target_currency || 'USD'), rsp_code: 200, rsp_msg: 'Call succeeds' };
      case 'aliexpress.ds.freight.query':
        return { result: this.freight(json(p.queryDeliveryReq, 'queryDeliveryReq')) };
      case 'aliexpress.ds.order.create':
        return { result: this.create(buyer, p, now) };
      case 'aliexpress.trade.ds.order.get': {
        json(p.single_order_query, 'single_order_query');
        // From the text: the id may pass 2^53, which JSON.parse would round.
        const id = /"order_id"\s*:\s*"?(\d+)"?/.exec(p.single_order_query ?? '')?.[1] ?? '';
        return { result: this.orders.answer(this.orders.shown(buyer, id, now, this.options.orderReadableAfterMs)), rsp_code: '200', rsp_msg: 'Call succeeds' };
      }
      case 'aliexpress.ds.order.tracking.get':
        return { result: this.orders.trackingAnswer(this.orders.shown(buyer, p.ae_order_id ?? '', now, this.options.orderReadableAfterMs)) };
      default:
        throw new AeFail('InvalidMethod', `The method ${method.slice(0, 60)} does not exist`);
    }
  }

  private search(p: Params): unknown {
    const words = (p.keyWord ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const found = this.products.filter((x) => x.status === 'onSelling' && words.every((w) => x.title.toLowerCase().includes(w)));
    const size = Math.min(50, Math.max(1, Number(p.pageSize) || 20));
    const page = Math.max(1, Number(p.pageIndex) || 1);
    const items = found.slice((page - 1) * size, page * size).map((x) => ({
      itemId: x.productId,
      title: x.title,
      itemMainPic: `https://ae01.alicdn.test/kf/${x.productId}.jpg`,
      salePrice: decimal(Math.min(...x.skus.map((s) => s.priceCents))),
      salePriceCurrency: p.currency || 'USD',
      itemUrl: `https://www.aliexpress.com/item/${x.productId}.html`,
    }));
    return {
      code: '00',
      msg: 'Call succeeds',
      data: { totalCount: found.length, pageIndex: page, pageSize: size, products: { selection_search_product: items } },
    };
  }

  productAnswer(id: string | undefined, country: string, currency: string): unknown {
    const x = this.product(id ?? '');
    if (!x) throw new AeFail('605', 'ITEM_ID_NOT_FOUND: the item does not exist', 'ITEM_ID_NOT_FOUND');
    if (x.notSoldTo.has(country) || this.unserved.has(country)) throw new AeFail('602', `The product is not sold to ${country}`, 'PRODUCT_NOT_SALE_TO_COUNTRY');
    return {
      ae_item_base_info_dto: {
        product_id: Number(x.productId),
        subject: x.title,
        product_status_type: x.status,
        currency_code: currency,
        detail: `<p>${x.title}</p>`,
      },
      ae_item_sku_info_dtos: {
        ae_item_sku_info_d_t_o: x.skus.map((s) => ({
          sku_id: s.skuId,
          sku_attr: s.skuAttr,
          sku_price: decimal(s.priceCents + 150),
          offer_sale_price: decimal(s.priceCents),
          sku_available_stock: s.stock,
          currency_code: currency,
          ae_sku_property_dtos: { ae_sku_property_d_t_o: s.props.map((pr) => ({ sku_property_name: pr.name, sku_property_value: pr.value })) },
        })),
      },
      ae_multimedia_info_dto: { image_urls: `https://ae01.alicdn.test/kf/${x.productId}.jpg;https://ae01.alicdn.test/kf/${x.productId}-2.jpg` },
    };
  }

  private freight(req: Record<string, unknown>): unknown {
    const x = this.product(String(req.productId ?? ''));
    const country = String(req.shipToCountry ?? '');
    if (!x) return { success: false, code: 605, msg: 'ITEM_ID_NOT_FOUND' };
    if (this.unserved.has(country) || x.notSoldTo.has(country)) return { success: false, code: 505, msg: 'DELIVERY_NOT_AVAILABLE_TO_YOUR_ADDRESS' };
    const quantity = Math.max(1, Number(req.quantity) || 1);
    const options = freightOptions(x, quantity).map((o) => ({
      code: o.code,
      company: o.code.replace(/_/g, ' '),
      shipping_fee_cent: String(o.feeCents),
      shipping_fee_currency: String(req.currency ?? 'USD'),
      min_delivery_days: o.minDays,
      max_delivery_days: o.maxDays,
      free_shipping: 'false',
      tracking: 'true',
      ship_from_country: 'CN',
    }));
    return { success: true, code: 200, msg: 'ok', delivery_options: { delivery_option_d_t_o: options } };
  }

  private create(buyer: Buyer, p: Params, now: number): unknown {
    const place = json(p.param_place_order_request4_open_api_d_t_o, 'param_place_order_request4_open_api_d_t_o');
    const extend = p.ds_extend_request ? json(p.ds_extend_request, 'ds_extend_request') : {};
    const payment = extend.payment && typeof extend.payment === 'object' ? (extend.payment as Record<string, unknown>) : {};
    const tryToPay = String(payment.try_to_pay) === 'true';
    const record: CreateRecord = {
      outOrderId: String(place.out_order_id ?? ''),
      userId: buyer.userId,
      tryToPay,
      items: [],
      address: (place.logistics_address as Record<string, unknown>) ?? {},
      accepted: false,
      errorCode: null,
    };
    this.received.creates.push(record);
    try {
      const injected = this.take('aliexpress.ds.order.create', true);
      if (injected) throw new AeFail(injected.code, injected.message ?? injected.code);
      const ids = this.orders.create(buyer, place, tryToPay, String(payment.pay_currency ?? 'USD'), now, record);
      record.accepted = true;
      if (this.faults.timeoutAfterCreateNext > 0) {
        this.faults.timeoutAfterCreateNext--;
        throw new HoldAnswer();
      }
      return { is_success: true, order_list: { number: ids.map((id) => BigInt(id)) } };
    } catch (err) {
      if (!(err instanceof AeFail)) throw err;
      record.errorCode = err.code;
      const held = (err as AeFail & { ids?: string[] }).ids;
      return {
        is_success: false,
        error_code: err.code,
        error_msg: err.message,
        ...(held && !this.faults.repeatedWithoutIds ? { order_list: { number: held.map((id) => BigInt(id)) } } : {}),
      };
    }
  }
}
