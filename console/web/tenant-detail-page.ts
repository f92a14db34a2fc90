// One tenant: conditions and events, namespaces, quota, and its
// ResourceBindings with placement and status. Read from the console API,
// read again when a live state shows the tenant or its placement moved.
import type { ConsoleState, TenantDetail } from '../../src/console/view/console-types.ts';
import { age } from '../../src/console/view/table-query.ts';
import { getJson } from './api.ts';
import { badge, bar, h, phaseTone, replaceChildren, type Child } from './dom.ts';
import type { Page, PageContext } from './page.ts';

function table(caption: string, headers: string[], rows: Child[][], empty: string): HTMLElement {
  return h('div', { class: 'table-wrap' }, h('table', {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows.length === 0
      ? h('tr', {}, h('td', { colspan: headers.length, class: 'empty' }, empty))
      : rows.map((r) => h('tr', {}, r.map((c, i) => h('td', { 'data-label': headers[i] ?? '' }, c)))))));
}

function render(d: TenantDetail): Child[] {
  const now = Date.now();
  return [
    h('p', { class: 'crumbs' }, h('a', { href: '#/tenants' }, 'Tenants'), ' / ', d.row.name),
    h('h1', {}, d.row.name, ' ', badge(d.row.phase, phaseTone(d.row.phase))),
    h('dl', { class: 'facts' },
      h('dt', {}, 'ID'), h('dd', {}, h('code', {}, d.row.id || '—')),
      h('dt', {}, 'Display name'), h('dd', {}, d.row.displayName || '—'),
      h('dt', {}, 'Users'), h('dd', {}, d.row.users.join(', ') || '—'),
      h('dt', {}, 'Members'), h('dd', {}, d.row.members.join(', ') || 'none'),
      h('dt', {}, 'Pod security'), h('dd', {}, d.podSecurity),
      h('dt', {}, 'Age'), h('dd', {}, age(d.row.createdAt, now))),
    h('section', { 'aria-labelledby': 'quota-h' }, h('h2', { id: 'quota-h' }, 'Quota'),
      d.quota.length === 0 ? h('p', {}, 'No quota set.') : h('div', { class: 'bars' }, d.quota.map((q) => bar(q.resource, q.fraction, `${q.used} / ${q.limit}`, q.over)))),
    h('section', { 'aria-labelledby': 'cond-h' }, h('h2', { id: 'cond-h' }, 'Conditions'),
      table('Conditions', ['Type', 'Status', 'Reason', 'Message', 'Since'],
        d.conditions.map((c) => [c.type, badge(c.status, c.status === 'True' ? 'ok' : 'bad'), c.reason, c.message, age(c.lastTransitionTime, now)]), 'No conditions yet.')),
    h('section', { 'aria-labelledby': 'ns-h' }, h('h2', { id: 'ns-h' }, 'Namespaces'),
      table('Namespaces', ['Name', 'Phase'], d.namespaces.map((n) => [n.name, n.phase]), 'No namespaces.')),
    h('section', { 'aria-labelledby': 'rb-h' }, h('h2', { id: 'rb-h' }, 'ResourceBindings'),
      table('ResourceBindings', ['Workload', 'Namespace', 'Replicas', 'Placement', 'Scheduled', 'Applied', 'Health'],
        d.bindings.map((b) => [`${b.kind}/${b.name}`, b.namespace || '—', String(b.replicas), b.placement.map((p) => h('span', { class: 'chip' }, `${p.member}: ${p.replicas}`)), b.scheduled, b.applied,
          badge(b.health, b.health === 'Healthy' ? 'ok' : b.health === 'Unhealthy' ? 'bad' : 'warn')]), 'Nothing propagated.')),
    h('section', { 'aria-labelledby': 'ev-h' }, h('h2', { id: 'ev-h' }, 'Events'),
      table('Events', ['Type', 'Reason', 'Object', 'Namespace', 'Message', 'Count', 'Last seen'],
        d.events.map((e) => [e.type, e.reason, e.object, e.namespace || '—', e.message, String(e.count), age(e.lastSeen, now)]), 'No events.')),
  ];
}

export function tenantDetailPage(main: HTMLElement, ctx: PageContext, name: string): Page {
  let seen = '';
  let loading = false;
  const load = (): void => {
    if (loading) return;
    loading = true;
    getJson<TenantDetail>(`/console/api/tenants/${encodeURIComponent(name)}`)
      .then((d) => replaceChildren(main, render(d)))
      .catch((err: Error) => replaceChildren(main, h('p', { class: 'crumbs' }, h('a', { href: '#/tenants' }, 'Tenants')), h('h1', {}, name), h('p', { role: 'alert' }, err.message)))
      .finally(() => { loading = false; });
  };
  replaceChildren(main, h('h1', {}, name), h('p', {}, 'Loading…'));
  load();
  return {
    update(state: ConsoleState) {
      // Reload only when something of this tenant moved: its row or its cells.
      const mine = JSON.stringify([state.tenants.find((t) => t.name === name), state.placement.cells.filter((c) => c.tenant === name)]);
      if (mine === seen) return;
      seen = mine;
      load();
    },
  };
}
