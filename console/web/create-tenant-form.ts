// Creating a tenant, through the provisioning API as a portal does: one PUT
// that answers once the tenant is Ready. Its answer holds the admin's
// kubeconfig, which the console drops: a download is its own explicit click.
import { sendJson } from './api.ts';
import { h, replaceChildren } from './dom.ts';
import type { PageContext } from './page.ts';
import { specFrom } from '../../src/console/view/tenant-spec-input.ts';

const NAME = '[a-z0-9]([\\-a-z0-9]*[a-z0-9])?';

function field(id: string, label: string, attrs: Record<string, string | boolean> = {}): { wrap: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { id, name: id, ...attrs });
  return { wrap: h('div', { class: 'field' }, h('label', { for: id }, label), input), input };
}

export function createTenantForm(ctx: PageContext): { element: HTMLElement; members(names: string[]): void } {
  const name = field('new-name', 'Name', { required: true, pattern: NAME, maxlength: '63', autocomplete: 'off', 'aria-describedby': 'new-name-help' });
  const display = field('new-display', 'Display name', { autocomplete: 'off' });
  const admin = field('new-admin', 'Admin user', { value: 'admin', required: true, autocomplete: 'off' });
  const namespaces = field('new-namespaces', 'Namespaces quota', { type: 'number', min: '1', inputmode: 'numeric' });
  const cpu = field('new-cpu', 'CPU quota', { placeholder: 'e.g. 8' });
  const memory = field('new-memory', 'Memory quota', { placeholder: 'e.g. 32Gi' });
  const memberBox = h('fieldset', { class: 'members' }, h('legend', {}, 'Members it may use'));
  const status = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create tenant');
  let known: string[] = [];
  const form = h('form', { class: 'create', novalidate: false },
    name.wrap, h('p', { id: 'new-name-help', class: 'help' }, 'Lowercase letters, digits and dashes (a DNS label).'),
    display.wrap, admin.wrap, namespaces.wrap, cpu.wrap, memory.wrap, memberBox, h('div', { class: 'form-actions' }, submit), status);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const tenant = name.input.value.trim();
    const members = [...memberBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')].map((c) => c.value);
    const spec = specFrom({ displayName: display.input.value, admin: admin.input.value, members, namespaces: namespaces.input.value, cpu: cpu.input.value, memory: memory.input.value });
    submit.disabled = true;
    status.textContent = `Creating ${tenant}… waiting until it is Ready.`;
    sendJson('PUT', `/warren/v1/tenants/${encodeURIComponent(tenant)}`, { spec })
      .then(() => {
        status.textContent = `Tenant ${tenant} is Ready.`;
        ctx.notify(`Tenant ${tenant} created and Ready.`, 'ok');
        form.reset();
      })
      .catch((err: Error) => {
        status.textContent = `Not created: ${err.message}`;
      })
      .finally(() => { submit.disabled = false; });
  });
  const details = h('details', { class: 'create-panel' }, h('summary', {}, 'New tenant'), form);
  return {
    element: details,
    members(names) {
      if (names.join(',') === known.join(',')) return;
      const checked = new Set([...memberBox.querySelectorAll<HTMLInputElement>('input:checked')].map((c) => c.value));
      known = names;
      replaceChildren(memberBox, h('legend', {}, 'Members it may use'), names.length === 0 ? h('p', {}, 'No members registered.') : names.map((m) => h('label', { class: 'check' },
        h('input', { type: 'checkbox', name: 'member', value: m, checked: checked.has(m) }), ` ${m}`)));
    },
  };
}
