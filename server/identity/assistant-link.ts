// The assistant's address (server/assistant/mcp.ts mounts it there): what each API key's answer offers to paste into an assistant.
export const MCP_PATH = '/api/mcp';

/** The address plus how to pass the key, ready to paste into an assistant's configuration. */
export function assistantLink(baseUrl: string, key: string) {
  return { url: `${baseUrl}${MCP_PATH}`, transport: 'streamable-http', headers: { 'X-API-Key': key } };
}
