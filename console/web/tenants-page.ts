// Tenants: every tenant with its phase, users, usage against quota, allowed
// members and age; filter and sort; create (provisioning API), suspend and
// resume, revoke credentials, delete after typing the name, and download a
// user's kubeconfig (the admin picks which) on an explicit click.
import type { ConsoleState, TenantRow } from '../../src/console/view/console-types.ts';
import { age, type TableQuery } from '../../src/console/view/table-query.ts';
import { sendJson } from './api.ts';
import { badge, bar, h, keepingFocus, phaseTone, replaceChildren } from './dom.ts';
import { redrawOnChange, type Page, type PageContext } from './page.ts';
import { sortableTable, type Column } from './table.ts';
import { createTenantForm } from './create-tenant-form.ts';
import { confirmDelete } from './confirm-delete.ts';
import { downloadKubeconfig } from './kubeconfig-dialog.ts';

export function tenantsPage(main: HTMLElement, ctx: PageContext): Page {
  let query: TableQuery<TenantRow> = { filter: '', sortBy: 'name', direction: 'ascending' };
  const tableArea = h('div', { id: 'tenants-table' });
  const filter = h('input', { id: 'tenant-filter', type: 'search', autocomplete: 'off', placeholder: 'name, id, phase, member…' });
  filter.addEventListener('input', () => {
    query = { ...query, filter: filter.value };
    draw();
  });
  const form = createTenantForm(ctx);
  replaceChildren(main,
    h('h1', {}, 'Tenants'),
    h('div', { class: 'toolbar' }, h('label', { for: 'tenant-filter' }, 'Filter tenants'), filter),
    form.element,
    tableArea);

  const act = async (row: TenantRow, action: 'suspend' | 'resume' | 'revoke'): Promise<void> => {
    try {
      await sendJson('POST', `/console/api/tenants/${encodeURIComponent(row.name)}/${action}`);
      const done = { suspend: 'suspended', resume: 'resumed', revoke: 'credentials revoked; new ones are being issued' }[action];
      ctx.notify(`Tenant ${row.name}: ${done}.`, 'ok');
    } catch (err) {
      ctx.notify(`Tenant ${row.name}: ${(err as Error).message}`, 'bad');
    }
  };
  const columns: Column<TenantRow>[] = [
    { key: 'name', label: 'Name', cell: (r) => h('a', { href: `#/tenants/${encodeURIComponent(r.name)}` }, r.name, r.displayName ? h('span', { class: 'sub' }, r.displayName) : null) },
    { key: 'id', label: 'ID', cell: (r) => h('code', {}, r.id || '—') },
    { key: 'phase', label: 'Phase', cell: (r) => badge(r.phase, phaseTone(r.phase)) },
    { key: 'users', label: 'Users', cell: (r) => r.users.map((u) => h('span', { class: 'chip' }, u, r.admins.includes(u) ? ' (admin)' : '')) },
    { key: 'usage', label: 'Usage / quota', sortable: false, cell: (r) => (r.usage.length === 0 ? 'no quota' : r.usage.map((u) => bar(u.resource, u.fraction, `${u.used} / ${u.limit}`, u.over))) },
    { key: 'members', label: 'Members', cell: (r) => (r.members.length === 0 ? 'none' : r.members.map((m) => h('span', { class: 'chip' }, m))) },
    { key: 'replicas', label: 'Replicas', cell: (r) => String(r.replicas) },
    { key: 'createdAt', label: 'Age', cell: (r) => h('time', { datetime: r.createdAt, title: r.createdAt }, age(r.createdAt, Date.now())) },
    {
      key: 'suspended', label: 'Actions', sortable: false, cell: (r) => h('div', { class: 'actions' },
        r.suspended
          ? h('button', { type: 'button', 'data-focus-key': `suspend-${r.name}`, 'aria-label': `Resume ${r.name}`, onclick: () => void act(r, 'resume') }, 'Resume')
          : h('button', { type: 'button', 'data-focus-key': `suspend-${r.name}`, 'aria-label': `Suspend ${r.name}`, onclick: () => void act(r, 'suspend') }, 'Suspend'),
        h('button', { type: 'button', 'aria-label': `Revoke credentials of ${r.name}`, onclick: () => void act(r, 'revoke') }, 'Revoke'),
        h('button', { type: 'button', 'aria-label': `Download kubeconfig of ${r.name}`, onclick: () => downloadKubeconfig(r, ctx) }, 'Kubeconfig'),
        h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${r.name}`, onclick: () => confirmDelete(r.name, ctx) }, 'Delete')),
    },
  ];

  function draw(): void {
    keepingFocus(main, redraw);
  }
  function redraw(): void {
    const state = ctx.state();
    replaceChildren(tableArea, state
      ? sortableTable({
        caption: 'Tenants', columns, rows: state.tenants, query, empty: 'No tenants match.',
        onQuery: (q) => { query = q; draw(); },
        rowAttrs: (r) => ({ 'data-tenant': r.name, 'data-phase': r.phase }),
      })
      : h('p', {}, 'Loading…'));
  }
  draw();
  const onState = redrawOnChange((state) => state.tenants, draw);
  return {
    update(state: ConsoleState) {
      form.members(state.members.map((m) => m.name));
      onState(state);
    },
  };
}
