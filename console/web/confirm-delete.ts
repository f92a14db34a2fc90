// Deleting a tenant takes everything it has with it, on the host and on every
// member: the dialog asks for the name typed out before the button works.
import { sendJson } from './api.ts';
import { h } from './dom.ts';
import type { PageContext } from './page.ts';

export function confirmDelete(tenant: string, ctx: PageContext): void {
  const input = h('input', { id: 'confirm-name', autocomplete: 'off', spellcheck: 'false' });
  const confirm = h('button', { type: 'submit', class: 'danger', disabled: true }, `Delete ${tenant}`);
  const cancel = h('button', { type: 'button' }, 'Cancel');
  const dialog = h('dialog', { 'aria-labelledby': 'confirm-title', class: 'confirm' },
    h('form', { method: 'dialog' },
      h('h2', { id: 'confirm-title' }, `Delete tenant ${tenant}?`),
      h('p', {}, 'Its namespaces, workloads, credentials and everything it propagated to members are removed. This cannot be undone.'),
      h('label', { for: 'confirm-name' }, `Type ${tenant} to confirm`), input,
      h('div', { class: 'form-actions' }, cancel, confirm)));
  input.addEventListener('input', () => { confirm.disabled = input.value !== tenant; });
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  confirm.addEventListener('click', (event) => {
    event.preventDefault();
    if (input.value !== tenant) return;
    dialog.close();
    sendJson('DELETE', `/warren/v1/tenants/${encodeURIComponent(tenant)}`)
      .then(() => ctx.notify(`Tenant ${tenant} is being deleted.`, 'ok'))
      .catch((err: Error) => ctx.notify(`Tenant ${tenant} not deleted: ${err.message}`, 'bad'));
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  input.focus();
}
