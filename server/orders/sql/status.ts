// The store order's status from its parts: the spec's rule, as SQL over a summary of the parts (./parts.ts writes it).

/** Where each status stands among the live ones: the order moves as its slowest live part. */
const RANK = `CASE x.status WHEN 'pending' THEN 0 WHEN 'processing' THEN 1 WHEN 'shipped' THEN 2 WHEN 'delivered' THEN 3 END`;

/** A store order's parts, summed up (`x`: its parts, a row with a null status when it has none): what its status and flag are made of. */
export const PARTS_SUMMARY = `count(x.status) AS parts, count(*) FILTER (WHERE x.status <> 'cancelled') AS live,
  min(${RANK}) FILTER (WHERE x.status <> 'cancelled') AS slowest, coalesce(bool_or(x.needs_attention), false) AS attention`;

/**
 * The spec's rule, over a PARTS_SUMMARY row `f`: the store order moves as its slowest live part (pending ones leave it
 * pending, or confirmed once `confirmed`); shipped or delivered only when every live part is; cancelled when all are.
 * test/dispatch/rules-in-the-database.test.ts checks it against every combination of up to three parts.
 */
export const statusFromParts = (f: string, confirmed: string) => `CASE
    WHEN ${f}.live = 0 THEN CASE WHEN ${f}.parts > 0 THEN 'cancelled' WHEN ${confirmed} THEN 'confirmed' ELSE 'pending' END
    WHEN ${f}.slowest = 0 THEN CASE WHEN ${confirmed} THEN 'confirmed' ELSE 'pending' END
    WHEN ${f}.slowest = 1 THEN 'processing' WHEN ${f}.slowest = 2 THEN 'shipped' ELSE 'delivered' END`;
