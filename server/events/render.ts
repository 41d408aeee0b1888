import { ALL_TYPES, type OutboxEvent } from './types';

/**
 * How a domain turns its events' snapshots into `data`: the resource as its own routes answer it, for a reader who
 * may (`showCustomer`) or may not see customer data. `permission` is the store permission its routes ask to read it;
 * `customerData`: what it shows includes the shopper's (shown only to a reader with customers.view).
 */
export interface EventRenderer {
  permission: string | null;
  customerData?: boolean;
  render(events: OutboxEvent[], showCustomer: boolean): Promise<unknown[]>;
}

/**
 * Who reads an event: the subscription owner's store permissions, as the API would check them now, and with an `own`
 * key, that key (only the records it made).
 */
export interface Reader {
  permissions: ReadonlySet<string>;
  ownRecordsOf?: string | null;
}

/** The event body sent to the receiver; `data` is null (and `dataOmitted` true) when it would exceed the limit. */
export interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  storeId: string;
  data: unknown;
  dataOmitted?: true;
}

/** An event's body for one reader, or why there is none: the reader may not read it, or rendering it threw. */
export type Rendered = { body: string } | { refused: 'notPermitted' | 'renderFailed' };

/** Every subscription's owner needs this: the subscription routes read with it, and without it deliveries stop. */
export const BASE_PERMISSION = 'suppliers.view';

/** Renderers by resource kind (the part of the resource key before the colon), registered by the owning domains. */
export class Renderers {
  private readonly byKind = new Map<string, EventRenderer>([['subscription', { permission: null, render: async (events) => events.map((e) => e.snapshot) }]]);
  private closed = false;

  /** While the list is built (each domain's index.ts); closed once it is assembled. */
  register(kind: string, renderer: EventRenderer): void {
    if (this.closed) throw new Error(`event renderer ${kind} registered after the domains were assembled`);
    this.byKind.set(kind, renderer);
  }

  close(): void {
    this.closed = true;
  }

  kinds(): string[] {
    return [...this.byKind.keys()];
  }

  /**
   * Every permission the data of these event types needs, for whoever changes where it goes: each kind's read
   * permission, and customers.view for kinds that show the shopper. `*` needs what every kind needs.
   */
  needs(eventTypes: string[]): string[] {
    const kinds = eventTypes.includes(ALL_TYPES) ? this.kinds() : eventTypes.map((t) => t.split('.')[0]);
    const out = new Set([BASE_PERMISSION]);
    for (const kind of kinds) {
      const r = this.byKind.get(kind);
      if (r?.permission) out.add(r.permission);
      if (r?.customerData) out.add('customers.view');
    }
    return [...out].sort();
  }

  /**
   * The bodies of these events for one reader, in the same order. A kind's batch that throws is rendered again one
   * event at a time, so only the event that cannot be rendered fails. A body over `limitBytes` is sent without its
   * data, for the receiver to read it back.
   */
  async bodies(
    events: OutboxEvent[],
    reader: Reader,
    limitBytes: number,
    onFailure: (err: unknown, e: OutboxEvent) => void = () => undefined,
  ): Promise<Rendered[]> {
    const out: Rendered[] = new Array(events.length).fill({ refused: 'notPermitted' });
    const showCustomer = reader.permissions.has('customers.view');
    const groups = new Map<string, number[]>();
    events.forEach((e, i) => {
      const kind = kindOf(e.resourceKey);
      // An own key reads only the records it made (test events are the subscription's own).
      if (reader.ownRecordsOf && kind !== 'subscription' && e.recordKeyId !== reader.ownRecordsOf) return;
      groups.set(kind, [...(groups.get(kind) ?? []), i]);
    });
    for (const [kind, indexes] of groups) {
      const renderer = this.byKind.get(kind);
      if (renderer?.permission && !reader.permissions.has(renderer.permission)) continue;
      const batch = renderer
        ? await renderer
            .render(
              indexes.map((i) => events[i]),
              showCustomer,
            )
            .catch(() => null)
        : null;
      for (const [n, i] of indexes.entries()) {
        try {
          if (!renderer) throw new Error(`no renderer for events of ${kind}`);
          const value = batch ? batch[n] : (await renderer.render([events[i]], showCustomer))[0];
          out[i] = { body: bodyOf(events[i], value, limitBytes) };
        } catch (err) {
          onFailure(err, events[i]);
          out[i] = { refused: 'renderFailed' };
        }
      }
    }
    return out;
  }
}

function bodyOf(e: OutboxEvent, data: unknown, limitBytes: number): string {
  const body: EventBody = { id: e.id, type: e.type, createdAt: e.createdAt.toISOString(), storeId: e.storeId, data };
  const text = JSON.stringify(body);
  return Buffer.byteLength(text) <= limitBytes ? text : JSON.stringify({ ...body, data: null, dataOmitted: true });
}

const kindOf = (resourceKey: string): string => resourceKey.slice(0, resourceKey.indexOf(':'));
