/**
 * The credential: its authenticate block sends X-API-Key (every other test goes through it), and its test
 * request, run the way n8n's credential tester runs it (request, then the responseCode rules on a
 * failure), passes with a good key and fails with a clear message for a wrong key or address.
 */
import net from 'node:net';

import { StoreSuppliersApi } from '../../credentials/StoreSuppliersApi.credentials';
import { freePort, leakScanTest, newDeveloper, Service, startService } from '../support/harness';

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

function resolve(value: string, data: Record<string, string>): string {
	return value.startsWith('=') ? value.slice(1).replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, n: string) => data[n] ?? '') : value;
}

const get = (obj: unknown, key: string): unknown => key.split('.').reduce<any>((o, k) => (o === null || o === undefined ? undefined : o[k]), obj);

/**
 * n8n's credential test for a request-based test (services/credentials-tester): the request, then, on an
 * answer, the responseSuccessBody rules in order; no answer at all is n8n's connection error.
 */
async function runCredentialTest(data: { apiKey: string; baseUrl: string }): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const { request, rules } = credential.test;
	const baseURL = resolve(String(request.baseURL), data);
	// axios joins baseURL and url with exactly one slash
	const url = `${baseURL.replace(/\/?\/$/, '')}/${String(request.url).replace(/^\/+/, '')}`;
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(credential.authenticate.properties.headers ?? {})) headers[name] = resolve(String(value), data);
	let res: Response;
	try {
		res = await fetch(url, { method: request.method ?? 'GET', headers });
	} catch (error) {
		return { status: 'Error', message: String((error as { cause?: { code?: string } }).cause?.code ?? error) };
	}
	if (!request.ignoreHttpStatusErrors && res.status >= 400) return { status: 'Error', message: `Received HTTP status code: ${res.status}` };
	const text = await res.text();
	let body: unknown = {};
	try {
		body = JSON.parse(text);
	} catch {
		body = { data: text };
	}
	for (const rule of rules ?? []) {
		if (rule.type === 'responseSuccessBody' && get(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

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
