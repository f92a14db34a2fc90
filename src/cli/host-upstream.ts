// How the platform-admin commands find the host cluster: --kubeconfig FILE, or
// --data-dir DIR of a `warren up` system (DIR/admin.kubeconfig).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createUpstream } from '../kube/upstream-client.ts';
import type { Upstream } from '../kube/upstream.ts';

export function hostUpstream(values: { kubeconfig?: string | undefined; 'data-dir'?: string | undefined }): Upstream {
  if (values.kubeconfig) return createUpstream({ path: values.kubeconfig });
  const dir = values['data-dir'] ?? '.warren';
  const path = join(dir, 'admin.kubeconfig');
  if (!existsSync(path)) throw new Error(`no host kubeconfig: pass --kubeconfig FILE, or --data-dir DIR of a running \`warren up\` (looked for ${path})`);
  return createUpstream({ path });
}
