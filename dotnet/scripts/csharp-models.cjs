// @ts-check
'use strict';
/** C# text of the named types: classes, extensible enums (unknown values kept), and per-operation queries. */
const { pascal, summary } = require('./csharp-types.cjs');

const VALUE_TYPES = /^(int|long|double|bool|DateTimeOffset)$/;

function initializer(type, entries) {
  if (type.endsWith('?')) return '';
  if (/^(List|Dictionary)</.test(type)) return ' = new();';
  if (VALUE_TYPES.test(type) || entries.some((e) => e.kind === 'enum' && e.name === type)) return '';
  return ' = default!;';
}

function emitClass(entry, entries) {
  const s = entry.schema;
  let out = summary(s.description, '') + `public sealed partial class ${entry.name}\n{\n`;
  for (const p of entry.props) {
    out += summary(p.description, '    ');
    out += `    [JsonPropertyName(${JSON.stringify(p.json)})]\n`;
    // A required field that may be null is sent as null, not left out.
    if (p.required && p.type.endsWith('?')) out += '    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]\n';
    out += `    public ${p.type} ${p.name} { get; set; }${initializer(p.type, entries)}\n\n`;
  }
  if (s.additionalProperties !== false) {
    out += '    /// <summary>Fields the service sent that this version of the client does not name.</summary>\n';
    out += '    [JsonExtensionData]\n    public Dictionary<string, JsonElement>? ExtensionData { get; set; }\n\n';
  }
  return out.trimEnd() + '\n}\n';
}

function memberNames(values) {
  const used = new Set();
  return values.map((v) => {
    let name = pascal(v);
    if (/^[0-9]/.test(name)) name = `Value${name}`;
    while (used.has(name)) name += '_';
    used.add(name);
    return name;
  });
}

function emitEnum(entry) {
  const { name, schema } = entry;
  const values = schema.enum;
  const members = memberNames(values);
  const lines = [
    summary(schema.description || `One of ${values.join(', ')}; a value this version does not know is kept as it is (see IsKnown).`, '').trimEnd(),
    `[JsonConverter(typeof(${name}.Converter))]`,
    `public readonly partial struct ${name} : IEquatable<${name}>`,
    '{',
    '    private readonly string? _value;',
    '',
    '    /// <summary>A value as the service spells it.</summary>',
    `    public ${name}(string value) => _value = value ?? throw new ArgumentNullException(nameof(value));`,
    '',
  ];
  values.forEach((v, i) => {
    lines.push(`    /// <summary><c>${v}</c></summary>`, `    public static ${name} ${members[i]} { get; } = new ${name}(${JSON.stringify(v)});`, '');
  });
  lines.push(
    '    /// <summary>Every value this version of the client knows.</summary>',
    `    public static IReadOnlyList<${name}> Known { get; } = new[] { ${members.join(', ')} };`,
    '',
    '    /// <summary>Whether this version of the client knows the value (a newer service may send others).</summary>',
    `    public bool IsKnown => ${values.map((v) => `_value == ${JSON.stringify(v)}`).join(' || ')};`,
    '',
    '    /// <summary>The value as the service spells it.</summary>',
    '    public override string ToString() => _value ?? string.Empty;',
    `    public bool Equals(${name} other) => string.Equals(_value, other._value, StringComparison.Ordinal);`,
    `    public override bool Equals(object? obj) => obj is ${name} other && Equals(other);`,
    '    public override int GetHashCode() => _value is null ? 0 : StringComparer.Ordinal.GetHashCode(_value);',
    `    public static bool operator ==(${name} left, ${name} right) => left.Equals(right);`,
    `    public static bool operator !=(${name} left, ${name} right) => !left.Equals(right);`,
    `    public static implicit operator ${name}(string value) => new ${name}(value);`,
    '',
    `    internal sealed class Converter : StringValueConverter<${name}>`,
    '    {',
    `        protected override ${name} FromString(string value) => new ${name}(value);`,
    '    }',
    '}',
  );
  return lines.join('\n') + '\n';
}

function formatted(p) {
  const bare = p.type.replace(/\?$/, '');
  if (bare === 'string') return 'value';
  if (bare === 'bool') return 'value ? "true" : "false"';
  if (/^(int|long|double)$/.test(bare)) return 'value.ToString(CultureInfo.InvariantCulture)';
  if (bare === 'DateTimeOffset') return 'value.ToString("O", CultureInfo.InvariantCulture)';
  return 'value.ToString()!';
}

/** The query of one operation: its fields, how they go into the address, and a copy with another cursor. */
function emitQuery(q) {
  let out = `/// <summary>Query of ${q.opId}.</summary>\npublic sealed partial class ${q.name}\n{\n`;
  for (const p of q.props) {
    out += summary(p.description, '    ');
    out += `    public ${p.type} ${p.name} { get; set; }\n\n`;
  }
  out += '    internal IEnumerable<KeyValuePair<string, string>> ToQuery()\n    {\n';
  for (const p of q.props) {
    out += `        if (${p.name} is { } ${p.local}) yield return new KeyValuePair<string, string>(${JSON.stringify(p.json)}, ${formatted(p).replace(/value/g, p.local)});\n`;
  }
  if (!q.props.length) out += '        yield break;\n';
  out += '    }\n';
  if (q.props.some((p) => p.json === 'cursor')) {
    out += `\n    internal ${q.name} WithCursor(string? cursor)\n    {\n        var copy = (${q.name})MemberwiseClone();\n        copy.Cursor = cursor;\n        return copy;\n    }\n`;
  }
  return out + '}\n';
}

function emitModels(registry, queries) {
  const entries = registry.entries();
  const parts = entries.map((e) => (e.kind === 'enum' ? emitEnum(e) : emitClass(e, entries)));
  for (const q of queries) parts.push(emitQuery(q));
  return parts.join('\n');
}

module.exports = { emitModels, VALUE_TYPES };
