import { route } from './platform/http/route';
import { object, pageQuery } from './platform/http/schemas';
const f = (q: { pageSize: number }) => q;
export const r = route({
  operationId: 'x', method: 'get', path: '/x', summary: 's', tag: 't', auth: 'caller', readOnly: true,
  query: object({ query: { type: 'string', maxLength: 200 }, ...pageQuery }),
  response: { status: 200, schema: {} },
  async handler(ctx) {
    return f(ctx.query);
  },
});
