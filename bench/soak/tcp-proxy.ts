import net from 'node:net';

/**
 * A TCP forwarder on loopback, switched at will: what a DNS name or a virtual IP does in a database failover (clients
 * keep one address; the proxy sends new connections to whichever server it names now and drops the old ones), and a
 * link that can be cut (a standby's replication stream stops, as when the network between the two fails).
 */
export class TcpProxy {
  private readonly server: net.Server;
  private readonly open = new Set<net.Socket>();
  private cutOff = false;
  port = 0;

  constructor(private target: number) {
    this.server = net.createServer((client) => {
      if (this.cutOff) return void client.destroy();
      const upstream = net.connect(this.target, '127.0.0.1');
      this.open.add(client).add(upstream);
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.open.delete(client);
        this.open.delete(upstream);
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve((this.port = (this.server.address() as net.AddressInfo).port))));
  }

  /** New connections go to `target`; every open one is dropped. */
  switchTo(target: number): void {
    this.target = target;
    this.cutOff = false;
    this.dropAll();
  }

  /** Every open connection dropped and new ones refused, until switchTo or restore. */
  cut(): void {
    this.cutOff = true;
    this.dropAll();
  }

  restore(): void {
    this.cutOff = false;
  }

  private dropAll(): void {
    for (const s of this.open) s.destroy();
    this.open.clear();
  }

  close(): Promise<void> {
    this.dropAll();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
