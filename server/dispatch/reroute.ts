import type { ReviewReason } from './review-reasons';
import type { SupplierOrderRecords } from './records';
import { absentBeforeRerouting, type Evaluation, firstUnderCeiling, move } from './sourcing';
import type { RerouteTry, SupplierOrder } from './supplier-order';

/**
 * The reroute step of a paused supplier order. A rule's reroute acts for the store under its owner's plan as it is
 * now. The part's supplier must provably hold no live order for it (./sourcing/absence.ts); then its other candidates
 * are judged in order (./sourcing/policies.ts `firstUnderCeiling`), and the first that can take it at most the
 * ceiling above the recorded cost takes the items by the one move (./sourcing/move.ts), and is sent like any other.
 * None: the pause stands, its message listing each candidate tried and why.
 */
export class Rerouter {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly request: (so: SupplierOrder) => Promise<void>,
    private readonly storeDropshipping: (storeId: string) => Promise<boolean>,
  ) {}

  async run(ev: Evaluation): Promise<SupplierOrder> {
    const { so } = ev.work;
    const request = so.rerouteRequest!;
    if (request.by === 'rule' && !(await this.storeDropshipping(so.storeId)))
      return this.end(so, [], "Not rerouted: the store owner's plan does not include dropshipping now.");
    const proof = await absentBeforeRerouting(ev);
    if ('stop' in proof) return this.end(so, [], `Not rerouted: ${proof.stop}`);
    const tried: RerouteTry[] = [];
    const pick = await firstUnderCeiling(ev, request, tried);
    if (!pick) {
      const left = [...new Set(so.earlier.map((e) => e.supplierKey))];
      const note =
        left.length && !request.connectionId
          ? ` The part was at ${left.join(', ')} before: no machine sends it back there; a person may reroute it there by name.`
          : '';
      return this.end(so, tried, `${tried.length ? 'Not rerouted: no alternate could take the part.' : 'Not rerouted: no alternate is left to try.'}${note}`);
    }
    const { first, second } = await move(ev, this.records, pick.offer, { kind: 'rerouted', request, tried, answer: proof.answer, proof: proof.proof });
    await this.request(second);
    return first;
  }

  private end(so: SupplierOrder, tried: RerouteTry[], message: string, reason?: ReviewReason): Promise<SupplierOrder> {
    return this.records.change(so, { type: 'rerouteEnded', tried, message, ...(reason ? { reason } : {}) });
  }
}
