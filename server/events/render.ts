import type { OutboxEvent } from './types';

/**
 * How a domain turns its events' snapshots into `data`: the resource as its own routes answer it, for a reader who
 * may (`showCustomer`) or may not see customer data. `permission` is the store permission its routes ask to read it.
 */
export interface EventRenderer {
  permission: string | null;
  render(events: OutboxEvent[], showCustomer: boolean): Promise<unknown[]>;
}

/** Who reads an event: the subscription owner's store permissions, as the API would check them now. */
export interface Reader {
  permissions: ReadonlySet<string>;
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

/** Renderers by resource kind (the part of the resource key before the colon), registered by the owning domains. */
export class Renderers {
  private readonly byKind = new Map<string, EventRenderer>([['subscription', { permission: null, render: async (events) => events.map((e) => e.snapshot) }]]);

  register(kind: string, renderer: EventRenderer): void {
    this.byKind.set(kind, renderer);
  }

  kinds(): string[] {
    return [...this.byKind.keys()];
  }

  /**
   * The bodies of these events for one reader, in the same order: `null` for an event the reader may not read (its
   * kind's permission missing). A body over `limitBytes` is sent without its data, for the receiver to read it back.
   */
  async bodies(events: OutboxEvent[], reader: Reader, limitBytes: number): Promise<Array<string | null>> {
    const out: Array<string | null> = new Array(events.length).fill(null);
    const showCustomer = reader.permissions.has('customers.view');
    const groups = new Map<string, number[]>();
    events.forEach((e, i) => {
      const kind = kindOf(e.resourceKey);
      groups.set(kind, [...(groups.get(kind) ?? []), i]);
    });
    for (const [kind, indexes] of groups) {
      const renderer = this.byKind.get(kind);
      if (!renderer) throw new Error(`no renderer for events of ${kind}`);
      if (renderer.permission && !reader.permissions.has(renderer.permission)) continue;
      const data = await renderer.render(indexes.map((i) => events[i]), showCustomer);
      indexes.forEach((i, n) => {
        const e = events[i];
        const body: EventBody = { id: e.id, type: e.type, createdAt: e.createdAt.toISOString(), storeId: e.storeId, data: data[n] };
        const text = JSON.stringify(body);
        out[i] = Buffer.byteLength(text) <= limitBytes ? text : JSON.stringify({ ...body, data: null, dataOmitted: true });
      });
    }
    return out;
  }
}

export const kindOf = (resourceKey: string): string => resourceKey.slice(0, resourceKey.indexOf(':'));
