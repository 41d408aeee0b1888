import { SEALED as DECLARED } from './composition';
import type { SealedValues } from './platform/sealed';

/**
 * Every value kept sealed under the keyring (APP_SECRET, APP_SECRET_PREVIOUS), as each domain declares it: what
 * `cli.js reseal` seals again with the newest secret, and what a start samples to tell which secret the data is under.
 */
export const SEALED: SealedValues[] = [...DECLARED];
