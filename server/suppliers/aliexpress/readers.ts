/**
 * AliExpress's JSON (docs/suppliers/aliexpress.md) in the contract's types; a wrong shape is a ShapeError. Lists are
 * taken bare (`[...]`) or wrapped once (`{ ae_item_sku_info_d_t_o: [...] }`), as the platform sends both.
 */
import type { SupplierProduct, SupplierVariant } from '../adapter';
import { ISO_COUNTRIES } from '../countries';
import { asObj, Obj, optionalText, ShapeError, text } from '../http';
import { decimalToMinor, MoneyFormatError } from '../money';
import { maxDaysOf, ShippingOption } from '../shipping';

/** Our id of a variant: AliExpress needs the product with the sku to order it, so both travel together. */
const variantIdOf = (productId: string, skuId: string) => `${productId}:${skuId}`;

export function splitVariantId(variantId: string): { productId: string; skuId: string } | null {
  const m = /^(\d{1,30}):([A-Za-z0-9_-]{1,100})$/.exec(variantId);
  return m ? { productId: m[1], skuId: m[2] } : null;
}

const productUrl = (productId: string) => `https://www.aliexpress.com/item/${productId}.html`;

/** A list, bare or wrapped once in an object with one array inside. Absent or empty: []. */
export function listOf(value: unknown, at: string): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value;
  const inner = Object.values(asObj(value, at)).filter(Array.isArray);
  if (inner.length === 1) return inner[0];
  if (inner.length === 0) return [];
  throw new ShapeError(`${at} is not a list`);
}

export function count(v: unknown): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return 0;
}

/** Minor units of an AliExpress amount in `currency` (ISO 4217's decimals for it). */
export function minor(value: unknown, at: string, currency: string): number {
  try {
    return decimalToMinor(value, currency);
  } catch (err) {
    if (err instanceof MoneyFormatError) throw new ShapeError(`${at} is not an amount`);
    throw err;
  }
}

/** The currency an amount object names, or the one the connection asked for. */
export const currencyOf = (o: Obj, wanted: string): string => optionalText(o, 'currency_code')?.toUpperCase() ?? wanted;

/** A sku as the create call wants it (`sku_attr`), with the variant the contract shows. */
export interface AeSku {
  variant: SupplierVariant;
  skuAttr: string;
}

/** `aliexpress.ds.product.get`'s `result`: the product, and its skus with their `sku_attr`. */
export function readProduct(result: unknown, wantedCurrency: string): { product: SupplierProduct; skus: AeSku[] } {
  const r = asObj(result, 'result');
  const base = asObj(r.ae_item_base_info_dto, 'result.ae_item_base_info_dto');
  const productId = text(base, 'product_id', 'result.ae_item_base_info_dto');
  const onSelling = (optionalText(base, 'product_status_type') ?? 'onSelling') === 'onSelling';
  const skus = listOf(r.ae_item_sku_info_dtos, 'result.ae_item_sku_info_dtos').map((raw, i): AeSku => {
    const at = `result.ae_item_sku_info_dtos[${i}]`;
    const s = asObj(raw, at);
    const skuId = text(s, 'sku_id', at);
    const options: Record<string, string> = {};
    for (const [j, p] of listOf(s.ae_sku_property_dtos, `${at}.ae_sku_property_dtos`).entries()) {
      const prop = asObj(p, `${at}.ae_sku_property_dtos[${j}]`);
      const name = optionalText(prop, 'sku_property_name') ?? `option ${j + 1}`;
      options[name] = optionalText(prop, 'property_value_definition_name') ?? optionalText(prop, 'sku_property_value') ?? '';
    }
    const price = s.offer_sale_price ?? s.sku_price;
    const variant: SupplierVariant = {
      id: variantIdOf(productId, skuId),
      sku: optionalText(s, 'sku_code') ?? skuId,
      title: Object.values(options).filter(Boolean).join(' / ') || 'Default',
      options,
      cost: { amountMinor: minor(price, `${at}.offer_sale_price`, currencyOf(s, wantedCurrency)), currency: currencyOf(s, wantedCurrency) },
      stock: count(s.sku_available_stock),
      available: onSelling,
    };
    return { variant, skuAttr: optionalText(s, 'sku_attr') ?? '' };
  });
  const media = r.ae_multimedia_info_dto && typeof r.ae_multimedia_info_dto === 'object' ? (r.ae_multimedia_info_dto as Obj) : {};
  const image = (optionalText(media, 'image_urls') ?? '').split(';').find((u) => /^https?:\/\/\S+$/.test(u)) ?? null;
  const product: SupplierProduct = {
    id: productId,
    title: optionalText(base, 'subject') ?? productId,
    description: optionalText(base, 'detail') ?? '',
    url: productUrl(productId),
    imageUrl: image,
    // Stock and cost are for the connection's ship-to country; whether an order's country is served, the freight quote says.
    shipsTo: [...ISO_COUNTRIES],
    variants: skus.map((s) => s.variant),
    updatedAt: null,
  };
  return { product, skus };
}

/** One product of a text search (no variants: they come with the product itself). */
export function readSearchItem(raw: unknown, at: string): SupplierProduct {
  const p = asObj(raw, at);
  const id = optionalText(p, 'itemId') ?? text(p, 'item_id', at);
  const image = optionalText(p, 'itemMainPic');
  return {
    id,
    title: optionalText(p, 'title') ?? id,
    description: '',
    url: productUrl(id),
    imageUrl: image && /^https?:\/\//.test(image) ? image : null,
    shipsTo: [...ISO_COUNTRIES],
    variants: [],
    updatedAt: null,
  };
}

/**
 * `delivery_options` of a freight answer. `shipping_fee_cent` is read as minor units when it is a whole number and as
 * an amount when it has a decimal point (the public docs leave its unit unsure).
 */
export function readFreight(result: Obj, currency: string): ShippingOption[] {
  return listOf(result.delivery_options, 'result.delivery_options').map((raw, i) => {
    const at = `result.delivery_options[${i}]`;
    const o = asObj(raw, at);
    const fee = o.shipping_fee_cent;
    const free = String(o.free_shipping) === 'true';
    const costMinor = free ? 0 : typeof fee === 'string' && fee.includes('.') ? minor(fee, `${at}.shipping_fee_cent`, currency) : count(fee);
    return { service: text(o, 'code', at), costMinor, maxDays: maxDaysOf(o.max_delivery_days) };
  });
}
