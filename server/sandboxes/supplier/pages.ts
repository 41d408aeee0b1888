import type { Product } from './types';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function formatUsd(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem}.err{color:#b00}</style>
</head><body>${body}</body></html>`;
}

export function productPage(product: Product): string {
  const rows = product.variants
    .map(
      (v) =>
        `<tr><td>${escapeHtml(v.sku)}</td><td>${escapeHtml(v.title)}</td><td>${formatUsd(v.costMinor)}</td>` +
        `<td>${v.available ? v.stock : 'unavailable'}</td></tr>`,
    )
    .join('');
  return layout(
    product.title,
    `<h1>${escapeHtml(product.title)}</h1>
<p><img src="/img/${escapeHtml(product.id)}.svg" alt="" width="240" height="240"></p>
<p>${escapeHtml(product.description)}</p>
<p>Ships to: ${product.shipsTo.map(escapeHtml).join(', ')}</p>
<table><thead><tr><th>SKU</th><th>Variant</th><th>Cost</th><th>Stock</th></tr></thead><tbody>${rows}</tbody></table>
<p><small>${escapeHtml(product.id)}</small></p>`,
  );
}

export function notFoundPage(what: string): string {
  return layout('Not found', `<h1>Not found</h1><p>${escapeHtml(what)}</p>`);
}

/** Placeholder artwork so imageUrl also resolves on the sandbox's own port. */
export function productImage(product: Product): string {
  let hash = 0;
  for (const ch of product.id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
<rect width="480" height="480" fill="hsl(${hue},45%,80%)"/>
<text x="240" y="250" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#333">${escapeHtml(product.title)}</text>
</svg>`;
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  state: string;
}

export function authorizePage(params: AuthorizeParams, error?: string): string {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return layout(
    'Sign in to Sandbox Supplier',
    `<h1>Sandbox Supplier</h1>
<p><strong>${escapeHtml(params.clientId || 'An application')}</strong> wants to place orders and read your catalogue.</p>
${error ? `<p class="err">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
${hidden('client_id', params.clientId)}${hidden('redirect_uri', params.redirectUri)}${hidden('state', params.state)}
<label>Account id or email <input name="accountId" autocomplete="username" required></label>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`,
  );
}
