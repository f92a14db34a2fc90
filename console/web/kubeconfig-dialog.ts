// A tenant's kubeconfig, for the user the admin picks (a tenant has several:
// the admin may need an ordinary user's to reproduce what that user sees).
// One user: downloaded at once. Several: a dialog with the users (admins
// first, marked), the first admin chosen.
import type { TenantRow } from '../../src/console/view/console-types.ts';
import { download } from './api.ts';
import { h } from './dom.ts';
import type { PageContext } from './page.ts';

async function fetchFor(row: TenantRow, user: string, ctx: PageContext): Promise<void> {
  try {
    const file = await download(`/console/api/tenants/${encodeURIComponent(row.name)}/kubeconfig?user=${encodeURIComponent(user)}`);
    ctx.notify(`Downloaded ${file}: it lets its holder act as ${user} in ${row.name}. Keep it safe.`, 'ok');
  } catch (err) {
    ctx.notify(`Kubeconfig of ${row.name}: ${(err as Error).message}`, 'bad');
  }
}

export function downloadKubeconfig(row: TenantRow, ctx: PageContext): void {
  const users = [...row.users].sort((a, b) => Number(row.admins.includes(b)) - Number(row.admins.includes(a)));
  if (users.length === 0) {
    ctx.notify(`Tenant ${row.name} has no users.`, 'bad');
    return;
  }
  if (users.length === 1) {
    void fetchFor(row, users[0] ?? '', ctx);
    return;
  }
  const select = h('select', { id: 'kubeconfig-user' }, users.map((u) => h('option', { value: u }, row.admins.includes(u) ? `${u} (admin)` : u)));
  const ok = h('button', { type: 'submit', class: 'primary' }, 'Download');
  const cancel = h('button', { type: 'button' }, 'Cancel');
  const dialog = h('dialog', { 'aria-labelledby': 'kubeconfig-title', class: 'confirm' },
    h('form', { method: 'dialog' },
      h('h2', { id: 'kubeconfig-title' }, `Kubeconfig of ${row.name}`),
      h('p', {}, 'It lets its holder act as that user inside the tenant. The download is logged with your name.'),
      h('label', { for: 'kubeconfig-user' }, 'User'), select,
      h('div', { class: 'form-actions' }, cancel, ok)));
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  ok.addEventListener('click', (event) => {
    event.preventDefault();
    const user = select.value;
    dialog.close();
    void fetchFor(row, user, ctx);
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  select.focus();
}
