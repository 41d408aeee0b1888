/**
 * The statement composer (server/platform/statement.ts): pieces several domains contribute to one statement each name
 * the relation they define and what they read; a clash of names or a read nobody gives is refused when the statement
 * is built, never sent. Orders' part move, as dispatch composes it, is held to the same.
 */
import { Params } from '../../server/platform/db';
import { columnsOf, PieceClash, Statement } from '../../server/platform/statement';
import { partMove, PART_KEYS } from '../../server/orders/sql/parts';

const STORE = '00000000-0000-4000-8000-000000000001';
const follow = { kind: 'follow', status: 'processing', shipment: null, needsAttention: false } as const;

test('pieces are written in order, each under its name, then the final select', () => {
  const st = new Statement(new Params());
  st.add({ name: 'a', gives: ['x'], reads: {}, sql: `SELECT ${st.p.add(1)}::int AS x` });
  st.add({ name: 'b', gives: ['y'], reads: { a: ['x'] }, sql: 'SELECT x + 1 AS y FROM a' });
  expect(st.sql('SELECT y FROM b', { b: ['y'] }).replace(/\s+/g, ' ')).toBe('WITH a AS (SELECT $1::int AS x), b AS (SELECT x + 1 AS y FROM a) SELECT y FROM b');
  expect(st.values).toEqual([1]);
});

test('a name taken twice is refused', () => {
  const st = new Statement(new Params()).add({ name: 'part', gives: ['x'], reads: {}, sql: 'SELECT 1 AS x' });
  expect(() => st.add({ name: 'part', gives: ['x'], reads: {}, sql: 'SELECT 2 AS x' })).toThrow(new PieceClash('two pieces of one statement are named part'));
});

test("a read of a relation nobody before defines, or of a column it does not give, is refused; so is the final select's", () => {
  const st = new Statement(new Params()).add({ name: 'a', gives: ['x'], reads: {}, sql: 'SELECT 1 AS x' });
  expect(() => st.add({ name: 'b', gives: [], reads: { later: ['x'] }, sql: 'SELECT x FROM later' })).toThrow(/reads later, which no piece before it defines/);
  expect(() => st.add({ name: 'b', gives: [], reads: { a: ['x', 'y'] }, sql: 'SELECT y FROM a' })).toThrow(/reads y of a, which it does not give/);
  expect(() => st.sql('SELECT z FROM a', { a: ['z'] })).toThrow(/the final select reads z of a/);
});

test("orders' part move needs order_id and group_key of the relation it is given, and refuses a caller already using its names", () => {
  const noGroup = new Statement(new Params()).add({ name: 'so', gives: ['order_id', 'status'], reads: {}, sql: 'SELECT 1' });
  expect(() => noGroup.add(...partMove(noGroup.p, STORE, 'so', follow))).toThrow(/part reads group_key of so/);
  // The names the move reserved quietly before (part, part_event, part_now, order_follow) now clash out loud.
  const taken = new Statement(new Params()).add({ name: 'part', gives: [...PART_KEYS], reads: {}, sql: 'SELECT 1' });
  expect(() => taken.add(...partMove(taken.p, STORE, 'part', follow))).toThrow(PieceClash);
  const fine = new Statement(new Params()).add({ name: 'so', gives: [...PART_KEYS], reads: {}, sql: 'SELECT 1' });
  fine.add(...partMove(fine.p, STORE, 'so', follow));
  expect(fine.sql('SELECT 1 FROM so', {})).toMatch(/part AS \(UPDATE fulfilment_groups[\s\S]*order_follow AS \(UPDATE store_orders/);
});

test('columns of a select or RETURNING list, by the name they are given', () => {
  expect(columnsOf('g.order_id, g.group_key, was.status AS was_status, ord.number AS "order_number", id')).toEqual([
    'order_id',
    'group_key',
    'was_status',
    'order_number',
    'id',
  ]);
});
