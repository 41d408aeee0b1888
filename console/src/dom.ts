/** A few DOM helpers: text is always set as text, never parsed as HTML. */
export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((ev: Event) => unknown)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (name === 'value') (el as HTMLInputElement).value = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
}

export function clear(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

/** The page's status line: what just happened, or what went wrong. */
export function notice(text: string, kind: 'ok' | 'error' | 'waiting' = 'ok'): void {
  const bar = document.getElementById('notice');
  if (!bar) return;
  bar.className = `notice ${kind}`;
  bar.textContent = text;
  bar.hidden = false;
}

export function errorText(err: unknown): string {
  const e = err as { message?: string; code?: string };
  return e?.code ? `${e.message} (${e.code})` : String(e?.message ?? err);
}

/** Runs an action from a button: disables it meanwhile and reports a failure on the status line. */
export async function act(button: HTMLButtonElement | null, run: () => Promise<unknown>): Promise<void> {
  if (button) button.disabled = true;
  try {
    await run();
  } catch (err) {
    notice(errorText(err), 'error');
  } finally {
    if (button) button.disabled = false;
  }
}

/** A modal dialog in the page: answers true only when the person chose the action. `input` holds any fields to fill in. */
export function confirmAction(opts: { title: string; body: Child[]; action: string; danger?: boolean; input?: HTMLElement }): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title' });
    const done = (ok: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(ok);
    };
    const form = h(
      'form',
      { method: 'dialog', onsubmit: (ev: Event) => (ev.preventDefault(), done(true)) },
      h('h2', { id: 'confirm-title' }, opts.title),
      ...opts.body.map((b) => (typeof b === 'string' ? h('p', {}, b) : b)),
      opts.input ?? null,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', onclick: () => done(false) }, 'Cancel'),
        h('button', { type: 'submit', class: opts.danger ? 'danger' : 'primary' }, opts.action),
      ),
    );
    dialog.addEventListener('cancel', () => done(false));
    dialog.append(form);
    document.body.append(dialog);
    dialog.showModal();
    const first = opts.input && (opts.input.matches('input, select') ? opts.input : opts.input.querySelector<HTMLElement>('input, select'));
    (first ?? (form.querySelector('button.secondary') as HTMLElement)).focus();
  });
}

/** A labelled field. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  return h('label', { class: 'field' }, h('span', {}, label), control, hint ? h('small', {}, hint) : null);
}

/** Copies to the clipboard and says so; answers false (and says why) when the browser does not allow it. */
export async function copyText(text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    notice(`${what} copied to the clipboard.`);
    return true;
  } catch {
    notice(`The browser did not allow copying; select the ${what.toLowerCase()} and copy it by hand.`, 'error');
    return false;
  }
}
