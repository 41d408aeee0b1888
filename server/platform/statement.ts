import type { Params } from './db';

/**
 * One statement built from named pieces that several domains contribute (a supplier order's change, its order part's
 * move, their events): kept as one round trip for speed, but each piece names the relation it defines, the columns
 * it gives, and what it reads of the pieces before it. The composer refuses a name taken twice and a piece that
 * reads a relation or column nobody before it gives, so one domain's piece cannot quietly capture another's name.
 */
export interface Piece {
  /** The name of the relation this piece defines (a WITH entry). */
  name: string;
  /** The columns it gives to later pieces; '*' when it gives none that are read by name. */
  gives: readonly string[];
  /** What it reads of earlier pieces: relation name → the columns it uses. */
  reads: Readonly<Record<string, readonly string[]>>;
  /** Its body: `SELECT …`, `INSERT … RETURNING …`, `UPDATE … RETURNING …`. */
  sql: string;
}

export class PieceClash extends Error {}

/** The columns a RETURNING or select list gives, by name (`a.b AS c` gives c, `x.y` gives y). */
export function columnsOf(list: string): string[] {
  return list
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => {
      const as = /\bAS\s+"?(\w+)"?$/i.exec(c);
      return as ? as[1] : c.split('.').pop()!.trim();
    });
}

export class Statement {
  private readonly pieces: Piece[] = [];
  private readonly given = new Map<string, ReadonlySet<string>>();

  constructor(readonly p: Params) {}

  /** Adds pieces in order; throws PieceClash for a name already defined or a read nobody before gives. */
  add(...pieces: Piece[]): this {
    for (const piece of pieces) {
      if (this.given.has(piece.name)) throw new PieceClash(`two pieces of one statement are named ${piece.name}`);
      this.check(piece.name, piece.reads);
      this.pieces.push(piece);
      this.given.set(piece.name, new Set(piece.gives));
    }
    return this;
  }

  /** The statement: every piece, then `select` (which reads `reads`, checked like a piece's). */
  sql(select: string, reads: Readonly<Record<string, readonly string[]>>): string {
    this.check('the final select', reads);
    return `WITH ${this.pieces.map((x) => `${x.name} AS (${x.sql})`).join(',\n     ')}\n     ${select}`;
  }

  get values(): unknown[] {
    return this.p.values;
  }

  private check(who: string, reads: Readonly<Record<string, readonly string[]>>): void {
    for (const [relation, columns] of Object.entries(reads)) {
      const has = this.given.get(relation);
      if (!has) throw new PieceClash(`${who} reads ${relation}, which no piece before it defines`);
      const missing = columns.filter((c) => !has.has(c) && !has.has('*'));
      if (missing.length) throw new PieceClash(`${who} reads ${missing.join(', ')} of ${relation}, which it does not give`);
    }
  }
}
