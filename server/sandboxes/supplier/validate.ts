import { ApiError, invalidRequest } from './errors';
import type { Destination, Environment, OrderRequest } from './types';

export type Json = Record<string, unknown>;

export function bodyObject(body: unknown): Json {
  if (body === undefined || body === null || body === '') return {};
  // Clients that forget Content-Type (fetch sends text/plain for strings) still get JSON handling.
  if (typeof body === 'string') {
    try {
      return bodyObject(JSON.parse(body));
    } catch {
      throw new ApiError(400, 'invalidJson', 'Body is not valid JSON');
    }
  }
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('Body must be a JSON object');
  return body as Json;
}

export function optionalInt(obj: Json, key: string, min = 0): number | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  // Money and counts are integers; reject 12.5 rather than round it.
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalidRequest(`${key} must be an integer >= ${min}`);
  }
  return value;
}

export function optionalBool(obj: Json, key: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalidRequest(`${key} must be a boolean`);
  return value;
}

function requiredString(obj: Json, key: string, max = 200, label = key): string {
  const value = obj[key];
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw invalidRequest(`${label} must be a non-empty string of at most ${max} characters`);
  }
  return value;
}

export function optionalString(obj: Json, key: string, max = 200, label = key): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) throw invalidRequest(`${label} must be a string of at most ${max} characters`);
  return value;
}

export function environment(obj: Json, key: string): Environment {
  const value = obj[key];
  if (value === undefined) return 'live';
  if (value !== 'live' && value !== 'test') throw invalidRequest(`${key} must be "live" or "test"`);
  return value;
}

export function countryCode(value: unknown, label = 'country'): string {
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) throw invalidRequest(`${label} must be an ISO-3166 alpha-2 code`);
  return value.toUpperCase();
}

export function httpUrl(value: unknown, label: string): string {
  if (typeof value !== 'string') throw invalidRequest(`${label} must be an absolute http(s) URL`);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalidRequest(`${label} must be an absolute http(s) URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidRequest(`${label} must be an absolute http(s) URL`);
  return value;
}

/** Positive integer query parameter with a default; `max` clamps rather than fails. */
export function queryInt(value: unknown, fallback: number, label: string, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalidRequest(`${label} must be a positive integer`);
  return Math.min(n, max);
}

export function queryString(value: unknown): string {
  if (Array.isArray(value)) return String(value[0] ?? '');
  return typeof value === 'string' ? value : '';
}

const MAX_LINES = 100;

export function parseCreateOrder(body: unknown): OrderRequest {
  const obj = bodyObject(body);
  const orderNumber = obj.orderNumber;
  if (typeof orderNumber !== 'string' || orderNumber.length < 1 || orderNumber.length > 64) {
    throw invalidRequest('orderNumber must be a string of 1 to 64 characters');
  }
  if (!Array.isArray(obj.items) || obj.items.length === 0 || obj.items.length > MAX_LINES) {
    throw invalidRequest(`items must be an array of 1 to ${MAX_LINES} lines`);
  }
  const items = obj.items.map((raw, i) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest(`items[${i}] must be an object`);
    const line = raw as Json;
    if (typeof line.variantId !== 'string' || line.variantId === '') throw invalidRequest(`items[${i}].variantId must be a string`);
    if (typeof line.quantity !== 'number' || !Number.isSafeInteger(line.quantity) || line.quantity < 1 || line.quantity > 10_000) {
      throw invalidRequest(`items[${i}].quantity must be an integer from 1 to 10000`);
    }
    return { variantId: line.variantId, quantity: line.quantity };
  });
  const reshipOf = optionalString(obj, 'reshipOf', 64);
  const rawDest = obj.destination;
  if (!rawDest || typeof rawDest !== 'object' || Array.isArray(rawDest)) throw invalidRequest('destination must be an object');
  const d = rawDest as Json;
  const line2 = optionalString(d, 'line2', 200, 'destination.line2');
  const region = optionalString(d, 'region', 200, 'destination.region');
  const phone = optionalString(d, 'phone', 64, 'destination.phone');
  const email = optionalString(d, 'email', 200, 'destination.email');
  // Echo only the optional fields that were sent, in a fixed key order.
  const destination: Destination = {
    name: requiredString(d, 'name', 200, 'destination.name'),
    line1: requiredString(d, 'line1', 200, 'destination.line1'),
    ...(line2 !== undefined ? { line2 } : {}),
    city: requiredString(d, 'city', 200, 'destination.city'),
    ...(region !== undefined ? { region } : {}),
    postalCode: requiredString(d, 'postalCode', 32, 'destination.postalCode'),
    country: countryCode(d.country, 'destination.country'),
    ...(phone !== undefined ? { phone } : {}),
    ...(email !== undefined ? { email } : {}),
  };
  return { orderNumber, items, destination, ...(reshipOf ? { reshipOf } : {}) };
}
