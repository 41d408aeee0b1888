import { api } from './api.js';
import { act, field, h, notice } from './dom.js';
import type { CatalogueEntry, Connection } from './supplier-connection.js';

/** The supplier's own settings as a form drawn from its settings schema: choices, text, numbers and switches. */
export function settingsForm(entry: CatalogueEntry, c: Connection, url: string, render: () => Promise<void>): HTMLElement | null {
  const props = Object.entries(entry.settingsSchema.properties ?? {});
  if (!props.length) return null;
  const controls = props.map(([name, schema]) => {
    const value = c.settings[name] ?? schema.default;
    if (Array.isArray(schema.enum))
      return { name, schema, el: h('select', { name }, ...schema.enum.map((v) => h('option', { value: String(v), selected: v === value }, String(v)))) };
    if (schema.type === 'boolean') return { name, schema, el: h('input', { type: 'checkbox', name, checked: value === true }) };
    if (schema.type === 'integer' || schema.type === 'number')
      return { name, schema, el: h('input', { type: 'number', name, value: value === undefined ? '' : String(value) }) };
    return { name, schema, el: h('input', { name, value: value === undefined ? '' : String(value), maxlength: Number(schema.maxLength ?? 500) }) };
  });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save settings');
  return h(
    'form',
    {
      class: 'sub',
      onsubmit: (ev: Event) => (
        ev.preventDefault(),
        void act(save, async () => {
          const settings: Record<string, unknown> = {};
          for (const { name, schema, el } of controls) {
            const input = el as HTMLInputElement;
            if (schema.type === 'boolean') settings[name] = input.checked;
            else if ((schema.type === 'integer' || schema.type === 'number') && input.value !== '') settings[name] = Number(input.value);
            else if (input.value !== '' || schema.type === 'string') settings[name] = input.value;
          }
          await api('PUT', `${url}/settings`, { settings });
          await render();
          notice('Settings saved.');
        })
      ),
    },
    h('h4', {}, `${entry.name} settings`),
    h(
      'div',
      { class: 'row' },
      ...controls.map(({ name, schema, el }) => field(label(name), el, typeof schema.description === 'string' ? schema.description : undefined)),
    ),
    h('div', { class: 'actions' }, save),
  );
}

/** shippingSpeed → Shipping speed */
function label(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
