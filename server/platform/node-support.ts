/**
 * The Node.js lines the service supports: those every runtime dependency supports (pg-boss 12: >= 22.12; TypeORM
 * 1.1: ^22.13 or >= 24.11), kept in step with `engines` in package.json.
 */
export const SUPPORTED_NODE = '^22.13.0 || >=24.11.0';

/** One sentence saying this Node is not supported, or null when it is. */
export function unsupportedNodeSentence(version: string = process.versions.node): string | null {
  const [major, minor] = version.split('.').map(Number);
  const supported = (major === 22 && minor >= 13) || (major === 24 && minor >= 11) || major > 24;
  return supported
    ? null
    : `Node.js ${version} is not supported (Store Suppliers needs Node 22.13+ or 24.11+, as its dependencies pg-boss and TypeORM do); running anyway, which may fail.`;
}

/**
 * V8 flags the service runs with (docs/decisions.md, "The service's young generation"): npm start and the benchmarks
 * pass them; a production command line must too (docs/operations.md). Node 24 on a large machine lets each of the
 * young generation's two halves grow to 64 MB, which a busy service fills and keeps resident.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=16'] as const;

/** One sentence when the process runs without SERVICE_NODE_FLAGS (on its command line or in NODE_OPTIONS), or null. */
export function missingNodeFlagsSentence(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string | null {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)];
  const missing = SERVICE_NODE_FLAGS.filter((flag) => !given.some((g) => g.split('=')[0] === flag.split('=')[0]));
  return missing.length
    ? `started without ${missing.join(' ')} (npm start passes it; give it to node or in NODE_OPTIONS): memory use may grow past the service's budget`
    : null;
}
