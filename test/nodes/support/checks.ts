/** What every operation test checks the same way: the request the node sent, and the items it put out. */
import type { INodeExecutionData } from 'n8n-workflow';

import type { Credentials, Param } from './context';
import type { RecordedRequest } from './engine';
import { runNode, type Run } from './world';

export interface Expected {
  method: string;
  path: string;
  /** The whole query (none when left out). */
  query?: Record<string, string>;
  /** The whole body, when given (`undefined`: no body). */
  body?: unknown;
  status?: number;
}

/** The request as the service got it: method, path, the whole query, the body, the status, and the credential's key header. */
export function expectSent(req: RecordedRequest, want: Expected, credentials: Credentials): void {
  expect({ method: req.method, path: req.path, query: req.query }).toEqual({ method: want.method, path: want.path, query: want.query ?? {} });
  if ('body' in want) expect(req.body).toEqual(want.body);
  if (want.status !== undefined) expect(req.status).toBe(want.status);
  expect(req.headers['X-API-Key']).toBe(credentials.apiKey);
}

/** Every item of the output, paired with the input item it came from. */
export function expectPaired(out: INodeExecutionData[], items: number[]): void {
  expect(out.map((i) => i.pairedItem)).toEqual(items.map((item) => ({ item })));
}

/** n8n's shape of a failed item under Continue On Fail: `error` is the message, the item paired with its input. */
export const errorItem = (item: number, message: unknown): INodeExecutionData => ({ json: { error: message }, pairedItem: { item } });

/**
 * Runs the node over `count` items under Continue On Fail (On Error: Continue (regular output)); give the
 * parameters that differ per item as functions of the item index.
 */
export async function runEachItem(credentials: Credentials, parameters: Record<string, Param>, count: number): Promise<Run> {
  return await runNode(credentials, parameters, { items: Array.from({ length: count }, () => ({ json: {} })), continueOnFail: true });
}

/** An id nothing has: the service answers 404 for it. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';
