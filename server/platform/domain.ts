import type { DataSource, MigrationInterface } from 'typeorm';
import type { Standbys } from './standbys';
import type { Config } from './config';
import type { Secrets } from './crypto';
import type { Boss, QueueSpec } from './jobs';
import type { Logger } from './logger';
import type { Cursors } from './pagination';
import type { AnyRoute } from './http/route';
import type { SealedValues } from './sealed';

/** What every domain is built from: the process's configuration, database, job queue and shared plumbing. */
export interface Platform {
  config: Config;
  db: DataSource;
  /** The database's address (the embedded one's when DATABASE_URL is unset), for connections of their own (LISTEN). */
  databaseUrl: string;
  log: Logger;
  boss: Boss;
  secrets: Secrets;
  cursors: Cursors;
  /** Whether the database's standbys hold what the service is about to acknowledge (./standbys.ts). */
  standbys: Standbys;
}

/** What a worker started that must stop with the process (given the time it may take). */
export type StopWork = (timeoutMs: number) => Promise<void>;

/**
 * One domain as the process assembles it (its module's `build`, from the platform and the domains it needs): its
 * routes, for the one route table, and in a worker process its job handlers and schedules.
 */
export interface Domain {
  routes: AnyRoute[];
  /** Worker role: registers the domain's handlers and schedules; answers how to stop what it runs itself. */
  work?(boss: Boss): Promise<StopWork | void>;
  /** Run by the hourly housekeeping job: clears what the domain keeps only for a while; answers what went. */
  housekeeping?(): Promise<Record<string, number>>;
  /**
   * Called once every domain of the list is built: a domain the later ones registered with while they were built (the
   * events domain's renderers and reactions) closes those registries and throws if one lacks what it must hold.
   */
  assembled?(): void;
}

/** A domain with its services beside the parts every domain has: checked against Domain, typed as written. */
export const domain = <T extends Domain>(d: T): T => d;

/** A migration as TypeORM runs it (a class; its `name` ends with its timestamp). */
export type Migration = new () => MigrationInterface;

/** What the process takes from a domain's module besides the domain: what it needs created and kept. */
interface ModuleParts {
  /** Its job queues, created at start. */
  queues?: readonly QueueSpec[];
  /** Its migrations (the runner orders them by timestamp). */
  migrations: readonly Migration[];
  /** Its sealed values (the keyring's reseal). */
  sealed?: readonly SealedValues[];
  /** Addresses outsiders post to (supplier and payment notifications): first in the route table, since their path shapes would also match other routes. */
  routesFirst?: boolean;
}

/**
 * A domain as server/composition.ts lists it: its name, the domains it is built from (`needs`, each listed before it:
 * the list's order is checked when it compiles and when it is assembled), and what it offers the domains after it
 * (`provides`: they are handed only these, each a member of what `build` answers: checked with the order).
 */
export interface DomainModule<
  Name extends string,
  Needs extends object,
  Built extends Domain,
  K extends string = never,
  Later extends object = object,
> extends ModuleParts {
  name: Name;
  needs: ReadonlyArray<keyof Needs & string>;
  provides: readonly K[];
  build(p: Platform, needs: Needs): Built;
  /**
   * Routes built once every domain of the list is built, from what domains listed after this one provide (`needs`,
   * checked like the others when the list compiles and when it is assembled): answers that show what a later domain
   * keeps, such as store orders showing their supplier orders. Added to the domain's own routes.
   */
  lateRoutes?: { needs: ReadonlyArray<keyof Later & string>; build(self: Built, later: Later): AnyRoute[] };
}

/** Any module, as the assembly reads the list (whatever each needs and provides). */
export interface AnyDomainModule extends ModuleParts {
  name: string;
  needs: readonly string[];
  provides: readonly PropertyKey[];
  build(p: Platform, needs: never): Domain;
  lateRoutes?: { needs: readonly string[]; build(self: never, later: never): AnyRoute[] };
}

/** Declares a domain's module, typed as written. */
export const domainModule = <Name extends string, Needs extends object, Built extends Domain, K extends string = never, Later extends object = object>(
  m: DomainModule<Name, Needs, Built, K, Later>,
) => m;

/**
 * True when every module of the list provides only what it builds, and needs only what the modules before it provide
 * (as they type it); otherwise what the first module that does not gets wrong.
 */
export type InOrder<T extends readonly unknown[], Built = object> = T extends readonly [infer M, ...infer Rest]
  ? M extends DomainModule<infer Name, infer Needs, infer B, infer K, infer _Later>
    ? [K] extends [keyof B]
      ? Built extends Needs
        ? InOrder<Rest, Built & Record<Name, Pick<B, K>>>
        : `${Name} needs a domain that is not built before it, or not as it is built`
      : `${Name} provides what it does not build`
    : never
  : true;

/** What every module of the list provides, by name, once the whole list is built. */
export type ProvidedBy<T extends readonly unknown[]> = {
  [M in T[number] as M extends { name: infer N extends string } ? N : never]: M extends DomainModule<string, infer _N, infer B, infer K, infer _L>
    ? Pick<B, K & keyof B>
    : never;
};

/** True when every module's late routes need only what the list provides (`P`); otherwise which module's do not. */
export type LateInOrder<T extends readonly unknown[], P> = T extends readonly [infer M, ...infer Rest]
  ? M extends DomainModule<infer Name, infer _N, infer _B, infer _K, infer Later>
    ? P extends Later
      ? LateInOrder<Rest, P>
      : `${Name}'s late routes need what the list does not provide`
    : never
  : true;
