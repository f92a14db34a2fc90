// Members: health (a member not Ready is red), Kubernetes version, taints,
// region/zone/provider, resource summary and the tenants allowed on each.
import type { MemberRow } from '../../src/console/view/console-types.ts';
import type { TableQuery } from '../../src/console/view/table-query.ts';
import { badge, bar, h, keepingFocus, replaceChildren } from './dom.ts';
import { redrawOnChange, type Page, type PageContext } from './page.ts';
import { sortableTable, type Column } from './table.ts';

export const healthTone = (health: string): string => (health === 'Ready' ? 'ok' : health === 'NotReady' ? 'bad' : 'warn');

export function membersPage(main: HTMLElement, ctx: PageContext): Page {
  let query: TableQuery<MemberRow> = { filter: '', sortBy: 'name', direction: 'ascending' };
  const area = h('div');
  const filter = h('input', { id: 'member-filter', type: 'search', autocomplete: 'off' });
  filter.addEventListener('input', () => { query = { ...query, filter: filter.value }; draw(); });
  replaceChildren(main, h('h1', {}, 'Members'), h('div', { class: 'toolbar' }, h('label', { for: 'member-filter' }, 'Filter members'), filter), area);
  const columns: Column<MemberRow>[] = [
    { key: 'name', label: 'Name', cell: (m) => m.name },
    { key: 'health', label: 'Health', cell: (m) => h('span', { title: m.healthReason }, badge(m.health, healthTone(m.health))) },
    { key: 'version', label: 'Version', cell: (m) => m.version || '—' },
    { key: 'region', label: 'Region', cell: (m) => m.region || '—' },
    { key: 'zone', label: 'Zone', cell: (m) => m.zone || '—' },
    { key: 'provider', label: 'Provider', cell: (m) => m.provider || '—' },
    { key: 'taints', label: 'Taints', cell: (m) => (m.taints.length === 0 ? 'none' : m.taints.map((t) => h('span', { class: 'chip taint' }, t))) },
    { key: 'resources', label: 'Resources (allocated / allocatable)', sortable: false, cell: (m) => (m.resources.length === 0 ? '—' : m.resources.map((r) => bar(r.resource, r.fraction, `${r.allocated} / ${r.allocatable}`))) },
    { key: 'nodes', label: 'Nodes ready', cell: (m) => m.nodes || '—' },
    { key: 'tenants', label: 'Tenants', cell: (m) => (m.tenants.length === 0 ? 'none' : m.tenants.map((t) => h('a', { class: 'chip', href: `#/tenants/${encodeURIComponent(t)}` }, t))) },
  ];
  function draw(): void {
    keepingFocus(main, redraw);
  }
  function redraw(): void {
    const state = ctx.state();
    replaceChildren(area, state
      ? sortableTable({ caption: 'Member clusters', columns, rows: state.members, query, empty: 'No members match.', onQuery: (q) => { query = q; draw(); },
        rowAttrs: (m) => ({ 'data-member': m.name, 'data-health': m.health, class: m.health === 'Ready' ? '' : 'row-bad' }) })
      : h('p', {}, 'Loading…'));
  }
  draw();
  return { update: redrawOnChange((state) => state.members, draw) };
}
