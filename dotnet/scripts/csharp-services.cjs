// @ts-check
'use strict';
/** C# text of the services: one class per service, one async method per operation, plus StoreClient's service tree. */
const { summary, xml } = require('./csharp-types.cjs');

/** Name of a JsonTypeInfo property of StoreJsonContext for a C# type. */
const infoName = (type) => {
  const list = /^List<(.+)>$/.exec(type);
  if (list) return `${infoName(list[1])}List`;
  return type.replace(/[^A-Za-z0-9]+/g, ' ').trim().split(' ').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
};
const info = (type) => `StoreJsonContext.Default.${infoName(type)}`;

function remarks(o) {
  const facts = [`<c>${o.method} ${xml(o.path)}</c>`];
  if (o.op['x-permission']) facts.push(`Permission: <c>${o.op['x-permission']}</c>.`);
  if (o.op['x-plan-gated']) facts.push(o.op['x-plan-gated'] === true ? 'Needs a plan with dropshipping.' : `Needs a plan with dropshipping ${xml(o.op['x-plan-gated'])}.`);
  if (o.op['x-credit-price'] !== undefined) facts.push(`Costs ${o.op['x-credit-price']} credit(s) ${xml(o.op['x-credit-charged'] ?? '')}.`.replace(' .', '.'));
  if (o.pauseThrows) facts.push('Throws <see cref="SupplierOrderPausedException"/> when the supplier order it answers is paused for review (a 202, the job not done yet, answers the order as it is).');
  return `    /// <remarks>${facts.join(' ')}</remarks>\n`;
}

/** The address as C#: literal parts joined with the escaped path parameters. */
function pathExpression(o) {
  const parts = o.path.split(/(\{\w+\})/).filter(Boolean);
  return parts.map((p) => (/^\{\w+\}$/.test(p) ? `StoreHttp.Segment(${o.paramNames[p.slice(1, -1)]}, nameof(${o.paramNames[p.slice(1, -1)]}))` : JSON.stringify(p))).join(' + ');
}

function methodFor(o) {
  const args = o.params.map((p) => `string ${p}`);
  if (o.body) args.push(o.body.required ? `${o.body.type} body` : `${o.body.type}? body = null`);
  if (o.query) args.push(`${o.query.name}? query = null`);
  const optionsType = o.dispatch ? 'DispatchOptions' : 'RequestOptions';
  args.push(`${optionsType}? options = null`, 'CancellationToken cancellationToken = default');
  const fields = [
    ...(o.query ? ['Query = query?.ToQuery()'] : []),
    ...(o.body ? [`Body = ${o.body.required ? '' : 'body is null ? StoreHttp.EmptyObject : '}StoreHttp.Json(body, ${info(o.body.type)})`] : []),
    ...(o.retrySafe ? ['RetrySafe = true'] : []),
    ...(o.idempotent ? ['Idempotent = true'] : []),
  ];
  const request = `new StoreRequest(${JSON.stringify(o.method)}, ${pathExpression(o)}, options)${fields.length ? ` { ${fields.join(', ')} }` : ''}`;
  const head = summary(o.op.summary, '    ') + remarks(o);
  let text;
  if (!o.result) {
    text = `    public Task ${o.name}Async(${args.join(', ')})\n        => _http.SendAsync(${request}, cancellationToken);\n`;
  } else if (o.answer) {
    text = [
      `    public Task<${o.answer.name}> ${o.name}Async(${args.join(', ')})`,
      `        => _http.SendAsync(${request}, ${info(o.result)}, ${info(o.answer.accepted)}, cancellationToken);`,
      '',
    ].join('\n');
  } else {
    const call = o.pauseThrows
      ? `SupplierOrderPausedException.NotPausedAsync(_http.SendAsync(${request}, cancellationToken), ${info(o.result)})`
      : `_http.SendAsync(${request}, ${info(o.result)}, cancellationToken)`;
    text = `    public Task<${o.result}> ${o.name}Async(${args.join(', ')})\n        => ${call};\n`;
  }
  text = head + text;
  if (o.page) {
    const callArgs = [...o.params, ...(o.body ? ['body'] : []), 'q', 'options', 'ct'].join(', ');
    text +=
      '\n' +
      summary(`Every item of ${o.name}Async, page after page: the same filters each time, the previous nextCursor as cursor, until hasMore is false.`, '    ') +
      `    public IAsyncEnumerable<${o.page.item}> ${o.name}AutoPagingAsync(${args.join(', ')})\n` +
      `        => Paging.WalkAsync(query ?? new ${o.query.name}(), (q, ct) => ${o.name}Async(${callArgs}), (q, cursor) => q.WithCursor(cursor), page => page.Items, page => page.Pagination.NextCursor, page => page.Pagination.HasMore, cancellationToken);\n`;
  }
  return text;
}

/** Service classes, the Suppliers group, and the part of StoreClient that builds them. */
function emitServices(ops) {
  const services = new Map();
  for (const o of ops) {
    const s = services.get(o.service.path) ?? { ...o.service, ops: [], tag: o.tag };
    s.ops.push(o);
    services.set(o.service.path, s);
  }
  const sorted = [...services.values()].sort((a, b) => a.path.localeCompare(b.path));
  let out = '';
  for (const s of sorted) {
    out += `/// <summary>${xml(s.tag)}: <c>store.${s.path}</c>.</summary>\npublic sealed partial class ${s.cls}\n{\n    private readonly StoreHttp _http;\n\n    internal ${s.cls}(StoreHttp http) => _http = http;\n`;
    for (const o of s.ops.slice().sort((a, b) => a.name.localeCompare(b.name))) out += '\n' + methodFor(o);
    out += '}\n\n';
  }
  const groups = sorted.filter((s) => s.path.startsWith('Suppliers.'));
  const roots = sorted.filter((s) => !s.path.includes('.'));
  out += '/// <summary>Every supplier route of the store: <c>store.Suppliers</c>.</summary>\npublic sealed partial class SuppliersService\n{\n    internal SuppliersService(StoreHttp http)\n    {\n';
  for (const s of groups) out += `        ${s.path.split('.')[1]} = new ${s.cls}(http);\n`;
  out += '    }\n';
  for (const s of groups) out += `\n    /// <summary>${xml(s.tag)}.</summary>\n    public ${s.cls} ${s.path.split('.')[1]} { get; }\n`;
  out += '}\n\npublic sealed partial class StoreClient\n{\n';
  out += '    /// <summary>Every supplier route of the store.</summary>\n    public SuppliersService Suppliers { get; private set; } = null!;\n';
  for (const s of roots) out += `\n    /// <summary>${xml(s.tag)}.</summary>\n    public ${s.cls} ${s.path} { get; private set; } = null!;\n`;
  out += '\n    private void CreateServices(StoreHttp http)\n    {\n        Suppliers = new SuppliersService(http);\n';
  for (const s of roots) out += `        ${s.path} = new ${s.cls}(http);\n`;
  out += '    }\n}\n';
  return out;
}

function emitContext(types) {
  const attrs = [...new Set(types)].sort().map((t) => `[JsonSerializable(typeof(${t}), TypeInfoPropertyName = ${JSON.stringify(infoName(t))})]`);
  return [
    '/// <summary>Source-generated JSON metadata of every request and answer (no reflection at run time).</summary>',
    '[JsonSourceGenerationOptions(DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]',
    ...attrs,
    'internal sealed partial class StoreJsonContext : JsonSerializerContext',
    '{',
    '}',
    '',
  ].join('\n');
}

module.exports = { emitServices, emitContext };
