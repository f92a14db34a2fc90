// Where each workload kind keeps its pod spec, as JSON pointer tokens.
// One table for the overriders, dependencies and replica requirements.
const POD_SPEC_TOKENS: Record<string, readonly string[]> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

export function podSpecPointer(kind: string | undefined): readonly string[] | undefined {
  return kind === undefined ? undefined : POD_SPEC_TOKENS[kind];
}

/** The pod spec of a workload (or pod) as a plain record, or undefined when there is none. */
export function podSpecOf(obj: { kind?: string | undefined; [k: string]: unknown }): Record<string, unknown> | undefined {
  const tokens = podSpecPointer(obj.kind);
  if (!tokens) return undefined;
  let cur: unknown = obj;
  for (const t of tokens) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[t];
  }
  return cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? cur as Record<string, unknown> : undefined;
}

export interface ContainerLike { name?: string; [k: string]: unknown }

/** containers then initContainers (then ephemeralContainers), skipping anything that is not an object. */
export function allContainers(spec: Record<string, unknown>): ContainerLike[] {
  const out: ContainerLike[] = [];
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list) if (c !== null && typeof c === 'object' && !Array.isArray(c)) out.push(c as ContainerLike);
  }
  return out;
}
