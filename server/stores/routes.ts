import { creatorOf, ownRecordsKeyId } from '../identity/permissions';
import type { AccountService } from '../identity/accounts';
import { errors } from '../platform/errors';
import { byCaller, defineRoutes, Reply, route } from '../platform/http/route';
import { currency, dateTime, object, pageOf, pageQuery, params, uuid } from '../platform/http/schemas';
import { permission, productFields, productSchema, productStatus, staffSchema, storeSchema } from './schemas';
import type { ProductService } from './products';
import { grantorOf, storeView, StoreService } from './stores';

export function storeRoutes(stores: StoreService, products: ProductService, accounts: AccountService) {
  return defineRoutes([
    route({
      operationId: 'createStore',
      method: 'post',
      path: '/api/stores',
      tag: 'Stores',
      auth: 'caller',
      readOnly: false,
      idempotent: true,
      summary: 'Create a store owned by the calling account',
      body: object({ name: { type: 'string', minLength: 1, maxLength: 200 }, currency }, ['name', 'currency']),
      response: { status: 201, schema: storeSchema },
      handler: async ({ caller, body }) => storeView(await stores.create(caller!.accountId, body)),
    }),
    route({
      operationId: 'listStores',
      method: 'get',
      path: '/api/stores',
      tag: 'Stores',
      auth: 'caller',
      readOnly: true,
      summary: 'Stores the caller owns or works on, with the permissions held there',
      response: {
        status: 200,
        schema: {
          type: 'array',
          items: object(
            {
              id: uuid,
              name: { type: 'string' },
              currency,
              ownerAccountId: uuid,
              createdAt: dateTime,
              role: { enum: ['owner', 'staff'] },
              permissions: { type: ['array', 'null'], items: permission },
            },
            ['id', 'name', 'currency', 'ownerAccountId', 'createdAt', 'role', 'permissions'],
          ),
        },
      },
      handler: async ({ caller }) => stores.listFor(caller!.accountId),
    }),
    route({
      operationId: 'listStaff',
      method: 'get',
      path: '/api/stores/:storeId/staff',
      ...byCaller('Stores', 'staff.manage', true),
      summary: "The store's staff and their permissions",
      params: params(['storeId']),
      response: { status: 200, schema: { type: 'array', items: staffSchema } },
      async handler({ params: p, caller, store }) {
        grantorOf(caller!, store!);
        return (await stores.listStaff(p.storeId)).map((s) => ({ accountId: s.accountId, permissions: s.permissions, createdAt: s.createdAt.toISOString() }));
      },
    }),
    route({
      operationId: 'setStaffMember',
      method: 'put',
      path: '/api/stores/:storeId/staff',
      ...byCaller('Stores', 'staff.manage', false),
      summary: 'Add a staff member by e-mail, or replace their permissions',
      description:
        'A staff member grants or takes away only permissions they hold; staff.manage and payments.manage only the store owner (403 grantExceedsOwnPermissions, naming them).',
      params: params(['storeId']),
      body: object({ email: { type: 'string', format: 'email' }, permissions: { type: 'array', items: permission, uniqueItems: true } }, [
        'email',
        'permissions',
      ]),
      response: { status: 200, schema: staffSchema },
      async handler({ params: p, body, caller, store }) {
        const grantor = grantorOf(caller!, store!);
        const account = await accounts.findByEmail(body.email);
        if (!account) throw errors.badRequest('accountNotFound', 'No account has this e-mail address.');
        const s = await stores.setStaff(p.storeId, account.id, body.permissions, grantor);
        return { accountId: s.accountId, permissions: s.permissions, createdAt: s.createdAt.toISOString() };
      },
    }),
    route({
      operationId: 'removeStaffMember',
      method: 'delete',
      path: '/api/stores/:storeId/staff/:accountId',
      ...byCaller('Stores', 'staff.manage', false),
      summary: 'Remove a staff member',
      params: params(['storeId', 'accountId']),
      response: { status: 204, schema: {} },
      async handler({ params: p, caller, store }) {
        await stores.removeStaff(p.storeId, p.accountId, grantorOf(caller!, store!));
        return new Reply(204, undefined, true);
      },
    }),
    route({
      operationId: 'createStoreProduct',
      method: 'post',
      path: '/api/store-products/:storeId',
      tag: 'Store products',
      auth: 'caller',
      permission: 'products.manage',
      credits: { action: 'storeProduct.create', price: 1 },
      readOnly: false,
      idempotent: true,
      summary: 'Create a store product with its variants',
      params: params(['storeId']),
      body: object(productFields, ['title', 'variants']),
      response: { status: 201, schema: productSchema },
      handler: async ({ caller, params: p, body, credits }) => products.create(p.storeId, body, creatorOf(caller!), (tx) => credits.spendInTransaction(tx)),
    }),
    route({
      operationId: 'listStoreProducts',
      method: 'get',
      path: '/api/store-products/:storeId',
      ...byCaller('Store products', 'products.view', true),
      summary: 'Store products, newest first, paged by cursor',
      params: params(['storeId']),
      query: object({ ...pageQuery, status: productStatus }),
      response: { status: 200, schema: pageOf(productSchema) },
      handler: async ({ caller, params: p, query }) => products.list(p.storeId, ownRecordsKeyId(caller), query),
    }),
    route({
      operationId: 'getStoreProduct',
      method: 'get',
      path: '/api/store-products/:storeId/:productId',
      ...byCaller('Store products', 'products.view', true),
      summary: 'One store product with its variants',
      params: params(['storeId', 'productId']),
      response: { status: 200, schema: productSchema },
      handler: async ({ caller, params: p }) => products.get(p.storeId, p.productId, ownRecordsKeyId(caller)),
    }),
    route({
      operationId: 'updateStoreProduct',
      method: 'put',
      path: '/api/store-products/:storeId/:productId',
      ...byCaller('Store products', 'products.manage', false),
      summary: 'Change a store product; `variants` replaces the set (give `id` to keep a variant)',
      params: params(['storeId', 'productId']),
      body: object(productFields, [], { minProperties: 1 }),
      response: { status: 200, schema: productSchema },
      handler: async ({ caller, params: p, body }) => products.update(p.storeId, p.productId, ownRecordsKeyId(caller), body),
    }),
    route({
      operationId: 'deleteStoreProduct',
      method: 'delete',
      path: '/api/store-products/:storeId/:productId',
      ...byCaller('Store products', 'products.manage', false),
      summary: 'Delete a store product',
      params: params(['storeId', 'productId']),
      response: { status: 204, schema: {} },
      async handler({ caller, params: p }) {
        await products.remove(p.storeId, p.productId, ownRecordsKeyId(caller));
        return new Reply(204, undefined, true);
      },
    }),
  ]);
}
