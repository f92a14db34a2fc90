// The placement map: tenants × members, each cell the tenant's replicas on
// that member (ready / scheduled), following the live state; a member that
// is not Ready is marked in its column. Choosing a cell lists its workloads.
import type { ConsoleState, PlacementCell } from '../../src/console/view/console-types.ts';
import { badge, h, keepingFocus, replaceChildren } from './dom.ts';
import { healthTone } from './members-page.ts';
import { redrawOnChange, type Page, type PageContext } from './page.ts';

export function placementPage(main: HTMLElement, ctx: PageContext): Page {
  const grid = h('div');
  const detail = h('section', { id: 'cell-detail', 'aria-live': 'polite', 'aria-labelledby': 'cell-h' });
  let chosen: { tenant: string; member: string } | undefined;
  replaceChildren(main, h('h1', {}, 'Placement'),
    h('p', { class: 'help' }, 'Replicas of each tenant on each member (ready / scheduled), live. Choose a cell to list its workloads.'), grid, detail);

  function showCell(state: ConsoleState): void {
    if (!chosen) return replaceChildren(detail);
    const { tenant, member } = chosen;
    const cell = state.placement.cells.find((c) => c.tenant === tenant && c.member === member);
    const workloads = cell?.workloads ?? [];
    replaceChildren(detail, h('h2', { id: 'cell-h' }, `${tenant} on ${member}`), workloads.length === 0 ? h('p', {}, 'Nothing placed here.') : h('div', { class: 'table-wrap' }, h('table', {},
      h('caption', { class: 'visually-hidden' }, `Workloads of ${tenant} on ${member}`),
      h('thead', {}, h('tr', {}, ['Kind', 'Namespace', 'Name', 'Ready / scheduled', 'Applied', 'Health'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, workloads.map((w) => h('tr', { 'data-workload': `${w.namespace}/${w.name}` },
        h('td', {}, w.kind), h('td', {}, w.namespace || '—'), h('td', {}, w.name), h('td', {}, `${w.ready} / ${w.replicas}`),
        h('td', {}, w.applied ? 'yes' : 'no'), h('td', {}, badge(w.health, w.health === 'Healthy' ? 'ok' : w.health === 'Unhealthy' ? 'bad' : 'warn'))))))));
  }

  function cellButton(state: ConsoleState, tenant: string, member: string, cell: PlacementCell | undefined): HTMLElement {
    const down = state.placement.health[member] !== 'Ready';
    const text = cell ? `${cell.ready} / ${cell.replicas}` : '0';
    const label = `${tenant} on ${member}: ${cell ? `${cell.replicas} replicas scheduled, ${cell.ready} ready, ${cell.workloads.length} workloads` : 'nothing placed'}${down ? ' (member not ready)' : ''}`;
    const pressed = chosen?.tenant === tenant && chosen.member === member;
    return h('td', { class: `cell${cell ? ' placed' : ''}${down ? ' down' : ''}`, 'data-cell': `${tenant}/${member}`, 'data-replicas': String(cell?.replicas ?? 0) },
      h('button', { type: 'button', 'aria-label': label, 'aria-pressed': String(pressed), onclick: () => { chosen = { tenant, member }; draw(); } }, text));
  }

  function draw(): void {
    keepingFocus(main, redraw);
  }
  function redraw(): void {
    const state = ctx.state();
    if (!state) return replaceChildren(grid, h('p', {}, 'Loading…'));
    const { tenants, members, cells } = state.placement;
    if (tenants.length === 0 || members.length === 0) return replaceChildren(grid, h('p', {}, 'No tenants or no members yet.'));
    const at = new Map(cells.map((c) => [`${c.tenant}\u0000${c.member}`, c]));
    replaceChildren(grid, h('div', { class: 'table-wrap' }, h('table', { class: 'map' },
      h('caption', { class: 'visually-hidden' }, 'Replicas per tenant and member'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Tenant'), members.map((m) => {
        const health = state.placement.health[m] ?? 'Unknown';
        return h('th', { scope: 'col', 'data-member-column': m, 'data-health': health, class: health === 'Ready' ? '' : 'down' }, m, ' ', badge(health, healthTone(health)));
      }))),
      h('tbody', {}, tenants.map((t) => h('tr', {}, h('th', { scope: 'row' }, h('a', { href: `#/tenants/${encodeURIComponent(t)}` }, t)),
        members.map((m) => cellButton(state, t, m, at.get(`${t}\u0000${m}`)))))))));
    showCell(state);
  }
  draw();
  return { update: redrawOnChange((state) => state.placement, draw) };
}
