// ControllerRevisions, the history of StatefulSet and DaemonSet templates: one per
// distinct template, named `<owner>-<hash>`, holding the template as a
// strategic-merge "replace" patch and a revision number that only grows.
import type { KubeObject } from '../../core/types.ts';
import { CONTROLLER_MANAGER, type PodTemplate } from './build-pod.ts';
import { computeHash } from './kube-hash.ts';
import { DEFS, isTerminating, ownerRef, type SimContext } from './sim-context.ts';

export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

export interface RevisionRef {
  name: string;
  hash: string;
  revision: number;
}

export function revisionData(template: PodTemplate | undefined): Record<string, unknown> {
  return { spec: { template: { ...(template ?? {}), $patch: 'replace' } } };
}

function numberOf(rev: KubeObject): number {
  return Number(rev.revision ?? 0) || 0;
}

export function ownedRevisions(ctx: SimContext, owner: KubeObject): KubeObject[] {
  return ctx.caches.revisions.byIndex('owner', owner.metadata.uid ?? '').filter((r) => !isTerminating(r));
}

/** The revision for the owner's current template: found, bumped to newest on a rollback, or created. */
export function ensureRevision(ctx: SimContext, owner: KubeObject, kind: 'StatefulSet' | 'DaemonSet', template: PodTemplate | undefined, collisionCount?: number): RevisionRef {
  const data = revisionData(template);
  const hash = computeHash(data, collisionCount);
  const name = `${owner.metadata.name}-${hash}`;
  const revisions = ownedRevisions(ctx, owner);
  const max = revisions.reduce((m, r) => Math.max(m, numberOf(r)), 0);
  const found = revisions.find((r) => r.metadata.name === name);
  if (found) {
    const isNewest = revisions.every((r) => r === found || numberOf(r) < numberOf(found));
    if (isNewest) return { name, hash, revision: numberOf(found) };
    const bumped = ctx.writer.update(DEFS.revisions, { ...found, revision: max + 1 }, CONTROLLER_MANAGER);
    return { name, hash, revision: numberOf(bumped) };
  }
  const created = ctx.writer.create(DEFS.revisions, {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: owner.metadata.namespace,
      labels: { ...(template?.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: hash },
      ownerReferences: [ownerRef(owner, 'apps/v1', kind)],
    },
    data,
    revision: max + 1,
  }, CONTROLLER_MANAGER);
  return { name, hash, revision: numberOf(created) };
}

/** Deletes the oldest revisions beyond `limit`, never one in `keep` (current, update, or still used by pods). */
export function cleanupRevisions(ctx: SimContext, owner: KubeObject, keep: Set<string>, limit: number): void {
  const removable = ownedRevisions(ctx, owner).filter((r) => !keep.has(r.metadata.name ?? '')).sort((a, b) => numberOf(a) - numberOf(b));
  for (const rev of removable.slice(0, Math.max(0, removable.length - limit))) ctx.writer.delete(DEFS.revisions, rev);
}
