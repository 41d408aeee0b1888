/**
 * The service compiles a route's validators on its first request (server/platform/http/validation.ts), so a schema
 * Ajv cannot compile would only show when that route is first called: every route of the table, with the AliExpress
 * app configured so its routes are in it too, is compiled here instead.
 */
import { buildServices, openDatabase, routeTable } from '../../server/composition';
import { loadConfig } from '../../server/platform/config';
import { compileValidators } from '../../server/platform/http/validation';
import { createLogger } from '../../server/platform/logger';
import type { Boss } from '../../server/platform/jobs';

const env = { APP_SECRET: 'x'.repeat(40), DATABASE_URL: 'postgres://127.0.0.1:1/none', ALIEXPRESS_APP_KEY: '34567812', ALIEXPRESS_APP_SECRET: 's'.repeat(32) };

test("every route's params, query and body schemas compile", () => {
  const config = loadConfig(env, []);
  const routes = routeTable(buildServices(config, openDatabase(config.databaseUrl), createLogger('silent'), null as unknown as Boss, config.databaseUrl));
  expect(routes.length).toBeGreaterThan(75);
  const failed = routes.flatMap((r) => {
    try {
      compileValidators(r).compileAll();
      return [];
    } catch (err) {
      return [`${r.method} ${r.path}: ${(err as Error).message}`];
    }
  });
  expect(failed).toEqual([]);
});

test('a schema Ajv cannot compile is refused when compiled, not when the route is declared', () => {
  const broken = compileValidators({ body: { type: 'object', properties: { n: { type: 'integer', minimum: 'one' } } } });
  expect(() => broken.compileAll()).toThrow(/minimum/);
  const good = compileValidators({ query: { type: 'object', properties: { n: { type: 'integer', maximum: 3 } }, additionalProperties: false } });
  good.compileAll();
  expect(() => good('query', { n: '4' })).toThrow(expect.objectContaining({ status: 400 }));
  expect(() => good('query', { n: '2' })).not.toThrow();
});
