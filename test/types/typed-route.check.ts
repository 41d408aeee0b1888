// Compiled by test/platform/typed-routes.test.ts: a handler's input is typed from its route's schemas.
import { route } from '../../server/platform/http/route';
import { object, pageQuery, params } from '../../server/platform/http/schemas';

export const checked = route({
  operationId: 'typedRouteCheck',
  method: 'post',
  path: '/check/:storeId',
  summary: 'type check only',
  tag: 'check',
  auth: 'caller',
  readOnly: false,
  credits: { action: 'check', price: 1, units: (body) => body.items.length },
  params: params(['storeId']),
  query: object({ ...pageQuery }),
  body: object({ items: { type: 'array', items: { type: 'string' } }, note: { type: 'string' } }, ['items']),
  response: { status: 200, schema: {} },
  async handler(ctx) {
    const storeId: string = ctx.params.storeId;
    const pageSize: number = ctx.query.pageSize;
    const items: string[] = ctx.body.items;
    const note: string | undefined = ctx.body.note;
    // @ts-expect-error a path parameter the route does not declare
    void ctx.params.orderId;
    // @ts-expect-error a body field the schema does not have
    void ctx.body.missing;
    // @ts-expect-error an optional field is not always there
    const always: string = ctx.body.note;
    // @ts-expect-error items are strings
    const wrong: number[] = ctx.body.items;
    return { storeId, pageSize, items, note, always, wrong };
  },
});
