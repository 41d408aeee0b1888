/**
 * A kept-alive socket the supplier closes just as it is reused resets before any answer: a read is sent once more
 * on a new socket; a change is never sent twice by the client (the job's order-number look-up makes that safe).
 * A real server that resets the second request of every socket, so the race is made certain instead of hoped for.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendRequest } from '../../server/suppliers/http';

let server: http.Server;
let base = '';
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const socket = req.socket as typeof req.socket & { served?: number };
    socket.served = (socket.served ?? 0) + 1;
    seen.push(`${req.method} ${socket.served}`);
    // The supplier closed this socket meanwhile: the reused socket is reset, nothing is answered.
    if (socket.served > 1) return socket.destroy();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, method: req.method }));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  server.closeAllConnections();
});

const names = { subject: 'The test supplier', object: 'the test supplier' };
const send = (method: string) => sendRequest({ method, baseUrl: base, path: '/thing', body: method === 'GET' ? undefined : { a: 1 }, timeoutMs: 5000 }, names);

test('a read on a reused socket that is reset is sent once more, on a new socket', async () => {
  expect((await send('GET')).status).toBe(200);
  const second = await send('GET');
  expect([second.status, JSON.parse(second.text)]).toEqual([200, { ok: true, method: 'GET' }]);
  // The first socket served one request and reset the second; a new socket answered it.
  expect(seen).toEqual(['GET 1', 'GET 2', 'GET 1']);
});

test('a change on a reused socket that is reset is not sent again by the client', async () => {
  expect((await send('GET')).status).toBe(200);
  await expect(send('POST')).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('ECONNRESET') });
  expect(seen).toEqual(['GET 1', 'POST 2']);
});
