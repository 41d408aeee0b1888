/**
 * The events domain's two registries (docs/architecture.md): filled by the domains built after it while the list is
 * built, closed once it is assembled, and complete then or the process does not start.
 */
import { closeRegistries } from '../../server/events';
import { Reactions } from '../../server/events/reactions';
import { Renderers } from '../../server/events/render';
import { EVENT_TYPES, INTERNAL_EVENT_TYPES } from '../../server/events/types';

const renderer = { permission: 'suppliers.view', render: async () => [] };
const kinds = [...new Set(Object.keys(EVENT_TYPES).map((t) => t.split('.')[0]))];

test('a kind a subscription may choose without its renderer, or an internal event without its reaction, stops the assembly', () => {
  const renderers = new Renderers();
  for (const kind of kinds.filter((k) => k !== 'supplierOrder')) renderers.register(kind, renderer);
  const reactions = new Reactions();
  reactions.on(
    Object.keys(INTERNAL_EVENT_TYPES).filter((t) => t !== 'storeOrder.captureFailed'),
    'probe',
    async () => undefined,
  );
  expect(() => closeRegistries(renderers, reactions)).toThrow('events: no renderer for supplierOrder; no reaction to storeOrder.captureFailed');
});

test('complete registries close: a registration after the assembly throws', () => {
  const renderers = new Renderers();
  for (const kind of kinds) renderers.register(kind, renderer);
  const reactions = new Reactions();
  reactions.on(Object.keys(INTERNAL_EVENT_TYPES), 'probe', async () => undefined);
  expect(() => closeRegistries(renderers, reactions)).not.toThrow();
  expect(() => renderers.register('late', renderer)).toThrow(/after the domains were assembled/);
  expect(() => reactions.on(['storeOrder.confirmed'], 'late', async () => undefined)).toThrow(/after the domains were assembled/);
});
