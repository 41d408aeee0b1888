/** Imports and links: the store's import jobs, and its product links with their actions. */
import { clear, h } from './dom.js';
import { importJobsSection } from './imports.js';
import { linksSection } from './links.js';
import type { Ctx } from './types.js';

export async function cataloguePage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const render = () => cataloguePage(root, ctx);
  const links = await linksSection(ctx, render);
  clear(
    root,
    h('h1', {}, 'Imports and links'),
    h('p', {}, h('a', { href: '#products' }, 'Choose products to import'), ' from a connected supplier.'),
    importJobsSection(ctx, render),
    links,
  );
}
