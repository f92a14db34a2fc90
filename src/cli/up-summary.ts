// The one summary `warren up` prints once everything is Ready.
import type { RunningUp } from '../up/start-up.ts';

export interface UpFiles {
  dataDir: string;
  logPath: string;
  auditLogPath?: string | undefined;
}

export function upSummary(up: RunningUp, { dataDir, logPath, auditLogPath }: UpFiles): string {
  const lines = [
    '',
    `Warren is up. Gateway: ${up.gatewayUrl}`,
    '',
    `  Platform admin (host cluster):  export KUBECONFIG=${up.adminKubeconfigPath}`,
  ];
  for (const [name, path] of Object.entries(up.memberKubeconfigPaths)) lines.push(`  Member ${name}:${' '.repeat(Math.max(1, 24 - name.length))}${path}`);
  if (up.tenants.length > 0) {
    lines.push('', 'Tenants (admin kubeconfigs, through the gateway):');
    for (const t of up.tenants) lines.push(`  ${t.name} (id ${t.id}, admin ${t.adminUser}):  ${dataDir}/tenants/${t.name}.kubeconfig`);
    const first = up.tenants[0];
    if (first) {
      lines.push('', 'Try:', `  kubectl --kubeconfig ${dataDir}/tenants/${first.name}.kubeconfig get namespaces`);
      lines.push(`  kubectl --kubeconfig ${dataDir}/tenants/${first.name}.kubeconfig create deployment web --image=nginx`);
    }
  }
  lines.push('', `Logs: ${logPath}${auditLogPath ? `   Audit: ${auditLogPath}` : ''}`);
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}
