/**
 * The credential: its authenticate block sends X-API-Key (every other test goes through it), and its test
 * request, run through n8n-core's RoutingNode as n8n's credential tester runs it, passes with a good key
 * and fails with a clear message for a wrong key or address.
 */
import net from 'node:net';

import { StoreSuppliersApi } from '../../credentials/StoreSuppliersApi.credentials';
import { freePort, leakScanTest, newDeveloper, Service, startService } from '../support/harness';
import { testCredential } from './support/credential-test';

let svc: Service;
let key: string;

beforeAll(async () => {
  svc = await startService({ label: 'node-credential' });
  key = (await newDeveloper(svc)).key;
});
afterAll(async () => {
  await svc.stop();
});

const credential = new StoreSuppliersApi();

/** The credential's test, run as n8n's credential tester runs it (see support/credential-test.ts). */
const runCredentialTest = (data: { apiKey: string; baseUrl: string }) => testCredential(credential, data);

test('the credential has the API Key (a password) and Base URL fields and sends X-API-Key', () => {
  expect(credential.name).toBe('storeSuppliersApi');
  expect(credential.displayName).toBe('Store Suppliers API');
  expect(credential.properties.map((p) => [p.displayName, p.name, p.type])).toEqual([
    ['API Key', 'apiKey', 'string'],
    ['Base URL', 'baseUrl', 'string'],
  ]);
  expect(credential.properties[0].typeOptions).toEqual({ password: true });
  expect(credential.authenticate).toEqual({ type: 'generic', properties: { headers: { 'X-API-Key': '={{$credentials.apiKey}}' } } });
  expect(credential.test.request).toMatchObject({ url: '/api/api-key/current', method: 'GET' });
  expect(credential.test.rules!.every((r) => r.type === 'responseSuccessBody')).toBe(true);
});

test('a good key passes the test, with or without a trailing slash on the Base URL', async () => {
  expect(await runCredentialTest({ apiKey: key, baseUrl: svc.baseUrl })).toEqual({ status: 'OK', message: 'Connection successful!' });
  expect((await runCredentialTest({ apiKey: key, baseUrl: `${svc.baseUrl}/` })).status).toBe('OK');
});

test('a wrong key fails with a message that says the key was not accepted', async () => {
  const result = await runCredentialTest({ apiKey: 'ssk_wrong', baseUrl: svc.baseUrl });
  expect(result.status).toBe('Error');
  expect(result.message).toMatch(/^The API key was not accepted/);
});

test('a wrong Base URL fails with a message naming the Base URL, or the connection error', async () => {
  const notOurs = net.createServer((socket) => socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
  await new Promise<void>((r) => notOurs.listen(0, '127.0.0.1', r));
  try {
    const port = (notOurs.address() as net.AddressInfo).port;
    const wrongPath = await runCredentialTest({ apiKey: key, baseUrl: `http://127.0.0.1:${port}` });
    expect(wrongPath).toEqual({ status: 'Error', message: expect.stringMatching(/^No Store Suppliers API answers at this Base URL/) });
  } finally {
    notOurs.close();
  }
  const nobody = await runCredentialTest({ apiKey: key, baseUrl: `http://127.0.0.1:${await freePort()}` });
  expect(nobody).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
});

leakScanTest();
