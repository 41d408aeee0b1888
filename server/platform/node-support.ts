/**
 * The Node.js lines the service supports: those every runtime dependency supports (pg-boss 12: >= 22.12; TypeORM
 * 1.1: ^22.13 or >= 24.11), kept in step with `engines` in package.json.
 */
export const SUPPORTED_NODE = '^22.13.0 || >=24.11.0';

/** One sentence saying this Node is not supported, or null when it is. */
export function unsupportedNodeSentence(version: string = process.versions.node): string | null {
  const [major, minor] = version.split('.').map(Number);
  const supported = (major === 22 && minor >= 13) || (major === 24 && minor >= 11) || major > 24;
  return supported ? null : `Node.js ${version} is not supported (Store Suppliers needs Node 22.13+ or 24.11+, as its dependencies pg-boss and TypeORM do); running anyway, which may fail.`;
}
