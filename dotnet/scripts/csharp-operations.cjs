// @ts-check
'use strict';
/**
 * Which operations of the OpenAPI document the .NET client exposes, in which service, under which method name.
 *
 * The rule (docs/decisions.md): an operation is exposed when its `security` admits the `apiKey` scheme, the
 * one credential a store client holds. That leaves out the notification addresses (no security: the caller
 * is a supplier or a payment provider), key management and other session-only routes, the sign-in callback,
 * and any operator route (its own token). Everything else is picked up from the table with no hand edits:
 * the service comes from the operation's tag, the method name from its operationId.
 */
const { pascal, words } = require('./csharp-types.cjs');

/**
 * Tags whose service the spec names. `path` is where the service sits on StoreClient, `split` sends an
 * operation of a tag that spans two services by its path, `nouns` are extra words a method name drops.
 */
const SERVICES = {
  'Supplier connections': { path: 'Suppliers.Connections', cls: 'SupplierConnectionsService' },
  'Supplier products and imports': {
    split: (p) => (/\/imports?(\/|$)/.test(p) ? 'imports' : 'products'),
    imports: { path: 'Suppliers.Imports', cls: 'ImportsService' },
    products: { path: 'Suppliers.Products', cls: 'SupplierProductsService' },
  },
  'Product links': { path: 'Suppliers.Links', cls: 'ProductLinksService' },
  'Supplier orders': { path: 'Suppliers.Orders', cls: 'SupplierOrdersService', nouns: ['part'] },
  Returns: { path: 'Suppliers.Returns', cls: 'ReturnsService', nouns: ['order'] },
  'API keys': { path: 'ApiKey', cls: 'ApiKeyService' },
  Stores: { path: 'Stores', cls: 'StoresService' },
  'Store products': { path: 'Products', cls: 'StoreProductsService' },
  'Store orders': { path: 'Orders', cls: 'StoreOrdersService' },
};

/** Submit, retry, reroute and pay throw when the order they answer (not a 202's) is paused (the spec's SDK rule). */
const PAUSE_THROWS = new Set(['submitOrderPart', 'retrySupplierOrder', 'rerouteSupplierOrder', 'paySupplierOrder']);
/** Changes that are safe to send again: submit makes one supplier order per part however often it is called. */
const RETRY_SAFE = new Set(['submitOrderPart']);

const exposed = (op) => (op.security ?? []).some((s) => s && Object.prototype.hasOwnProperty.call(s, 'apiKey'));

/** A tag the table adds later: its own service, under Suppliers when its paths are supplier routes. */
function serviceFor(tag, path) {
  const known = SERVICES[tag];
  if (known) return known.split ? known[known.split(path)] : known;
  const under = path.startsWith('/api/store-suppliers/') ? 'Suppliers.' : '';
  const leaf = pascal(tag);
  return { path: under + leaf, cls: `${leaf}Service` };
}

const VERB_RANK = { get: 0, list: 1, search: 1 };

/** The exposed operations, each with its service and method name, in a stable order (get, list, then the rest). */
function selectOperations(openapi) {
  const ops = [];
  for (const [path, methods] of Object.entries(openapi.paths ?? {})) {
    for (const [method, op] of Object.entries(/** @type {Record<string, any>} */ (methods))) {
      if (!exposed(op)) continue;
      const tag = (op.tags ?? ['General'])[0];
      const service = serviceFor(tag, path);
      ops.push({ path, method: method.toUpperCase(), op, id: op.operationId, tag, service });
    }
  }
  const rank = (o) => VERB_RANK[words(o.id)[0]] ?? 2;
  ops.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
  nameMethods(ops);
  for (const o of ops) {
    o.pauseThrows = PAUSE_THROWS.has(o.id);
    // A create or money action: sent with one Idempotency-Key per call, the same on every retry.
    o.idempotent = (o.op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    // Reads (the table's x-read-only, which also marks preview and resolve-url), submit, and keyed calls.
    o.retrySafe = o.op['x-read-only'] === true || RETRY_SAFE.has(o.id) || o.idempotent;
  }
  return ops;
}

/**
 * The operationId less the words its service already says: the verb stays, the tag's and the service's
 * nouns go (listSupplierOrders in Suppliers.Orders is List). Two that meet keep their whole operationId.
 */
function nameMethods(ops) {
  const byService = new Map();
  for (const o of ops) {
    const nouns = new Set();
    const add = (w) => {
      const lower = w.toLowerCase();
      nouns.add(lower);
      nouns.add(lower.endsWith('s') ? lower.slice(0, -1) : `${lower}s`);
    };
    for (const w of [...words(o.tag), ...words(o.service.path.replace(/\./g, ' ')), ...(SERVICES[o.tag]?.nouns ?? [])]) if (!['and', 'or', 'of'].includes(w.toLowerCase())) add(w);
    const [verb, ...rest] = words(o.id);
    o.name = pascal([verb, ...rest.filter((w) => !nouns.has(w.toLowerCase()))].join(' '));
    const list = byService.get(o.service.path) ?? [];
    list.push(o);
    byService.set(o.service.path, list);
  }
  for (const list of byService.values()) {
    for (const o of list) if (list.filter((x) => x.name === o.name).length > 1) o.clash = true;
    for (const o of list) if (o.clash) o.name = pascal(o.id);
  }
}

module.exports = { selectOperations, SERVICES, PAUSE_THROWS, RETRY_SAFE };
