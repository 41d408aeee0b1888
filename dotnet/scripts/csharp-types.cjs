// @ts-check
'use strict';
/**
 * JSON Schema (the subset the route table uses) to C# types. Object schemas become classes and string enums
 * become extensible enum structs; both are shared by shape: two schemas that give the same C# shape give one
 * type, named by the first place that needs it (operations are visited get, list, then the rest). Anything
 * the subset does not cover becomes JsonNode rather than a wrong type.
 */

const pascal = (s) =>
  String(s)
    .replace(/^_+/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('') || 'Value';
const words = (camel) => String(camel).replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean);
const IRREGULAR = { staff: 'staffMember', catalogue: 'catalogueEntry', details: 'detail', data: 'datum' };
function singular(name) {
  const lower = name.charAt(0).toLowerCase() + name.slice(1);
  if (IRREGULAR[lower]) return name.charAt(0) === lower.charAt(0) ? IRREGULAR[lower] : pascal(IRREGULAR[lower]);
  if (/ies$/.test(name)) return name.slice(0, -3) + 'y';
  if (/(ss|us)$/.test(name)) return name + 'Item';
  if (/s$/.test(name)) return name.slice(0, -1);
  return name + 'Item';
}

const xml = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\s+/g, ' ').trim();
const summary = (text, pad) => (text ? `${pad}/// <summary>${xml(text)}</summary>\n` : '');

/** `{ schema, nullable }` with the null branch of oneOf/anyOf, `type: [x, 'null']` and enum's null taken out. */
function strip(schema) {
  if (!schema || typeof schema !== 'object') return { schema, nullable: false };
  for (const key of ['oneOf', 'anyOf']) {
    const list = schema[key];
    if (Array.isArray(list)) {
      const rest = list.filter((s) => !(s && s.type === 'null'));
      if (rest.length === 1) return { schema: { ...rest[0], description: schema.description ?? rest[0].description }, nullable: rest.length < list.length || strip(rest[0]).nullable };
      return { schema, nullable: rest.length < list.length };
    }
  }
  if (Array.isArray(schema.type)) {
    const rest = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: rest.length < schema.type.length };
  }
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return { schema: { ...schema, enum: schema.enum.filter((v) => v !== null) }, nullable: true };
  return { schema, nullable: false };
}

const kindOf = (s) => {
  if (!s || typeof s !== 'object') return 'unknown';
  if ('const' in s) return typeof s.const === 'boolean' ? 'boolean' : typeof s.const === 'string' ? 'string' : 'unknown';
  if (Array.isArray(s.enum)) return s.enum.length > 0 && s.enum.every((v) => typeof v === 'string') ? 'enum' : 'unknown';
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf) || Array.isArray(s.allOf) || Array.isArray(s.type)) return 'unknown';
  if (s.type === 'object' || (!s.type && s.properties)) return s.properties && Object.keys(s.properties).length ? 'class' : 'map';
  return ['string', 'integer', 'number', 'boolean', 'array'].includes(s.type) ? s.type : 'unknown';
};

const INT32 = 2147483647;
/** Money is integer minor units plus a currency code (design card): that shape is one type wherever it appears. */
const MONEY = /^\(amountMinor!:long,currency!:str\)$/;
/** The C# shape of a schema, with no names: two schemas with the same key become one type. */
function shapeKey(raw) {
  const { schema: s, nullable } = strip(raw);
  const n = nullable ? '?' : '';
  switch (kindOf(s)) {
    case 'string':
      return (s.format === 'date-time' ? 'date' : 'str') + n;
    case 'integer':
      return (typeof s.minimum === 'number' && typeof s.maximum === 'number' && s.minimum >= -INT32 - 1 && s.maximum <= INT32 ? 'int' : 'long') + n;
    case 'number':
      return 'num' + n;
    case 'boolean':
      return 'bool' + n;
    case 'enum':
      return `enum(${s.enum.join('|')})${n}`;
    case 'array':
      return `[${shapeKey(s.items)}]${n}`;
    case 'map':
      return (s.additionalProperties && typeof s.additionalProperties === 'object' ? `{${shapeKey(s.additionalProperties)}}` : '{}') + n;
    case 'class': {
      const req = new Set(s.required ?? []);
      const props = Object.keys(s.properties).map((p) => `${p}${req.has(p) ? '!' : ''}:${shapeKey(s.properties[p])}`);
      return `(${props.join(',')}${s.additionalProperties === false ? '' : ',...'})${n}`;
    }
    default:
      return 'node' + n;
  }
}

/** Every named type the models need, keyed by shape. */
class TypeRegistry {
  constructor(reserved) {
    /** @type {Map<string, {name: string, kind: 'class'|'enum', schema: any}>} */
    this.byKey = new Map();
    /** @type {Map<string, string>} name -> key */
    this.byName = new Map(reserved.map((n) => [n, '#reserved']));
  }

  /** The first candidate name that is free (or already this shape's), else the last one numbered. */
  claim(key, candidates) {
    for (const c of candidates) {
      const owner = this.byName.get(c);
      if (owner === undefined || owner === key) return c;
    }
    const base = candidates[candidates.length - 1];
    for (let i = 2; ; i++) if (!this.byName.has(base + i)) return base + i;
  }

  /**
   * The C# type of a schema. `hint` names it where a class or enum is needed: `names` (candidate names,
   * best first), or `parent` and `prop` for a property, and `key` to keep a type to one operation.
   */
  type(raw, hint) {
    const { schema: s, nullable } = strip(raw);
    const q = nullable ? '?' : '';
    switch (kindOf(s)) {
      case 'string':
        return (s.format === 'date-time' ? 'DateTimeOffset' : 'string') + q;
      case 'integer':
        return (shapeKey(s) === 'int' ? 'int' : 'long') + q;
      case 'number':
        return 'double' + q;
      case 'boolean':
        return 'bool' + q;
      case 'array': {
        const itemHint = hint.names ? { names: hint.names.map((n) => singular(n)) } : { parent: hint.parent, prop: singular(hint.prop) };
        return `List<${this.type(s.items, itemHint)}>` + q;
      }
      case 'map': {
        const extra = s.additionalProperties;
        if (extra && typeof extra === 'object') return `Dictionary<string, ${this.type(extra, { parent: hint.parent, prop: `${hint.prop}Value` })}>` + q;
        return 'JsonObject' + q;
      }
      case 'enum':
      case 'class':
        return this.named(s, hint) + q;
      default:
        return 'JsonNode?';
    }
  }

  named(s, hint) {
    const kind = kindOf(s) === 'enum' ? 'enum' : 'class';
    const key = hint.key ?? shapeKey(s);
    const known = this.byKey.get(key);
    if (known) return known.name;
    const name = this.claim(key, MONEY.test(key) ? ['Money'] : hint.names ?? propertyNames(hint.parent, hint.prop));
    this.byName.set(name, key);
    const entry = { name, kind, schema: s, props: [] };
    this.byKey.set(key, entry);
    if (kind === 'class') entry.props = this.properties(s, name);
    return name;
  }

  properties(s, owner) {
    const required = new Set(s.required ?? []);
    const used = new Set([owner]);
    return Object.entries(s.properties).map(([json, schema]) => {
      let name = pascal(json);
      while (used.has(name)) name += 'Value';
      used.add(name);
      const type = this.type(schema, { parent: owner, prop: json });
      const optional = !required.has(json);
      return { json, name, type: optional && !type.endsWith('?') ? `${type}?` : type, required: !optional, description: schema && schema.description };
    });
  }

  /** The named types in the order they were made. */
  entries() {
    return [...this.byKey.values()];
  }
}

/** A property's own type name: a name of two words or more stands alone (reviewReason), one word takes its parent's. */
function propertyNames(parent, prop) {
  const own = pascal(prop);
  if (prop === 'pagination') return ['Pagination', parent + own];
  return words(prop).length > 1 ? [own, parent + own] : [parent + own];
}

module.exports = { TypeRegistry, pascal, words, singular, summary, xml, shapeKey, strip };
