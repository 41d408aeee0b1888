import fs from 'node:fs';
import net from 'node:net';

/**
 * A port nothing listens on, below the kernel's ephemeral range: a port that `listen(0)` hands out is one an outgoing
 * connection may take before the program given it listens (a loaded CI run lost an embedded Postgres's port so).
 */
export async function freePort(): Promise<number> {
  let low = 32768;
  try {
    low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    /* not Linux: the usual range */
  }
  const tryPort = (port: number) =>
    new Promise<number | null>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(null));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(port)));
    });
  for (let i = 0; i < 100; i++) {
    const port = await tryPort(10000 + Math.floor(Math.random() * Math.max(1, low - 10000)));
    if (port) return port;
  }
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
