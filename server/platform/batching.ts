/**
 * Work items submitted while one batch runs wait and go together in the next, so many requests share one
 * statement (a lookup) or one transaction and one commit (group commit). Each submitter is answered only
 * once its batch finished (or failed). At low load a batch holds one item and adds no waiting.
 */
export class Batcher<T, R> {
  private waiting: Array<{ item: T; resolve(r: R): void; reject(e: unknown): void }> = [];
  private writing = false;

  constructor(
    /** Runs a batch; answers one result per item, in order. */
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 500,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // Requests that arrived in the same turn of the event loop join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const out = await this.write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(out[i]));
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.writing = false;
  }
}
