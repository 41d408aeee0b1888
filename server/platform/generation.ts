/**
 * The release generation in every connection's application_name: a migration that only works once the previous
 * release's processes are gone (a contract step) waits while one is connected (db.ts, `olderProcesses`).
 */
export const SCHEMA_GENERATION = 'g2';
export const applicationName = (role: string): string => `${role} ${SCHEMA_GENERATION}`;
