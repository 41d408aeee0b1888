/**
 * The configuration files of the Patroni cluster (./patroni.ts): one etcd, three Patroni members, HAProxy checking
 * Patroni's REST API, and PgBouncer in transaction mode in front of HAProxy. docs/operations.md ("High availability
 * with Patroni") quotes these settings; keep the two in step.
 */

export interface MemberPorts {
  name: string;
  pg: number;
  rest: number;
}

export interface ClusterSettings {
  scope: string;
  etcdPort: number;
  password: string;
  /** Patroni's synchronous_mode: a commit returns once a standby has flushed it, and only such a standby is promoted. */
  synchronous: boolean;
  bin: string;
  fsync?: boolean;
}

/** Timings: a dead leader's key expires after `ttl` s; Patroni runs its loop every `loop_wait` s. */
export const PATRONI_DCS = { ttl: 10, loop_wait: 1, retry_timeout: 3 };

/** Patroni's YAML, written as JSON (YAML's superset). */
export function patroniConfig(s: ClusterSettings, m: MemberPorts, dir: string): string {
  return JSON.stringify({
    scope: s.scope,
    name: m.name,
    log: { level: 'INFO' },
    restapi: { listen: `127.0.0.1:${m.rest}`, connect_address: `127.0.0.1:${m.rest}` },
    // etcd's v2 API: Patroni 3.0.2 updates its leader key there by compare-and-swap on its own name. Through the v3
    // API it puts the key unconditionally when its cached view is stale: a leader frozen past its TTL took the key
    // back from the member elected meanwhile (seen here: two leaders in turn, the second one's commits rewound).
    etcd: { hosts: `127.0.0.1:${s.etcdPort}` },
    bootstrap: {
      dcs: {
        ...PATRONI_DCS,
        // Asynchronous: any standby may be promoted, however far behind (the drills' worst case, where the service's
        // own wait is the only guarantee). Synchronous: Patroni's guarantee, no acknowledged commit lost.
        maximum_lag_on_failover: s.synchronous ? 1048576 : 1024 * 1024 * 1024,
        synchronous_mode: s.synchronous,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            wal_level: 'replica',
            hot_standby: 'on',
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_keep_size: '256MB',
            max_connections: 200,
            fsync: s.fsync ? 'on' : 'off',
            wal_sender_timeout: '10s',
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C' }, { auth: 'scram-sha-256' }],
    },
    postgresql: {
      listen: `127.0.0.1:${m.pg}`,
      connect_address: `127.0.0.1:${m.pg}`,
      data_dir: `${dir}/data`,
      bin_dir: s.bin,
      pgpass: `${dir}/pgpass`,
      authentication: {
        superuser: { username: 'postgres', password: s.password },
        replication: { username: 'replicator', password: 'replicator' },
        rewind: { username: 'postgres', password: s.password },
      },
      parameters: { unix_socket_directories: dir },
      pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 scram-sha-256', 'host replication replicator 127.0.0.1/32 scram-sha-256'],
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  });
}

/**
 * HAProxy: `primary` routes to the member whose Patroni answers 200 on /primary, `replicas` to those answering
 * /replica. A member marked down has its sessions shut at once (on-marked-down shutdown-sessions): clients on a
 * demoted or vanished primary get a closed connection, not a read-only server.
 */
export function haproxyConfig(members: MemberPorts[], primaryPort: number, replicaPort: number): string {
  const servers = (check: string) => [
    `  option httpchk GET ${check}`,
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
    ...members.map((m) => `  server ${m.name} 127.0.0.1:${m.pg} maxconn 300 check port ${m.rest}`),
  ];
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 60m',
    '  timeout server 60m',
    '  timeout check 1s',
    `listen primary`,
    `  bind 127.0.0.1:${primaryPort}`,
    ...servers('/primary'),
    `listen replicas`,
    `  bind 127.0.0.1:${replicaPort}`,
    '  balance roundrobin',
    ...servers('/replica'),
    '',
  ].join('\n');
}

/**
 * PgBouncer in transaction mode: a server connection is lent for one transaction only. server_login_retry 1 s: after
 * a failover the first connect may find no primary yet (the default waits 15 s before trying again).
 */
export function pgbouncerConfig(dir: string, port: number, haproxyPort: number): string {
  return [
    '[databases]',
    `* = host=127.0.0.1 port=${haproxyPort}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    `unix_socket_dir = ${dir}`,
    'auth_type = scram-sha-256',
    `auth_file = ${dir}/userlist.txt`,
    'pool_mode = transaction',
    'max_client_conn = 1000',
    'default_pool_size = 60',
    'server_login_retry = 1',
    // Idle server connections closed after 30 s (the default keeps them 10 minutes): the pool follows the load down.
    'server_idle_timeout = 30',
    'server_connect_timeout = 3',
    'ignore_startup_parameters = extra_float_digits,statement_timeout',
    `logfile = ${dir}/pgbouncer.log`,
    `pidfile = ${dir}/pgbouncer.pid`,
    '',
  ].join('\n');
}
