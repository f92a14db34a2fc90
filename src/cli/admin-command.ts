// `warren admin token|certificate`: credentials for platform admins and portals
// to use the gateway's provisioning API (/warren/v1/tenants/...).
import { parseArgs } from 'node:util';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadGatewaySecrets } from '../gateway/state/gateway-secrets.ts';
import { mintPlatformAdminToken, PLATFORM_ADMINS_GROUP } from '../gateway/portal/platform-admin.ts';
import { issueCertificate } from '../pki/certificates.ts';
import { hostUpstream } from './host-upstream.ts';

const USAGE = `Usage: warren admin token [--name NAME] [--ttl SECONDS]
       warren admin certificate --out-dir DIR [--name NAME] [--days N]
Host: --kubeconfig FILE, or --data-dir DIR of a \`warren up\` system (default .warren)
`;

export async function runAdminCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      kubeconfig: { type: 'string' },
      'data-dir': { type: 'string' },
      name: { type: 'string', default: 'platform-admin' },
      ttl: { type: 'string', default: '3600' },
      days: { type: 'string', default: '30' },
      'out-dir': { type: 'string' },
    },
    strict: true,
  });
  const verb = positionals[0];
  if (verb !== 'token' && verb !== 'certificate') {
    process.stdout.write(USAGE);
    return verb ? 2 : 0;
  }
  const upstream = hostUpstream(values);
  try {
    const secrets = await loadGatewaySecrets(upstream);
    if (verb === 'token') {
      process.stdout.write(`${await mintPlatformAdminToken(secrets.signingKeys, values.name, Number(values.ttl))}\n`);
      return 0;
    }
    const dir = values['out-dir'];
    if (!dir) throw new Error('warren admin certificate needs --out-dir DIR');
    const cert = await issueCertificate({ ca: secrets.tenantCa, commonName: values.name, organizations: [PLATFORM_ADMINS_GROUP], lifetimeMs: Number(values.days) * 24 * 3600_000 });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'admin.crt'), cert.certPem, { mode: 0o644 });
    await writeFile(join(dir, 'admin.key'), cert.keyPem, { mode: 0o600 });
    await writeFile(join(dir, 'gateway-ca.crt'), secrets.servingCa.certPem, { mode: 0o644 });
    process.stdout.write(`wrote ${dir}/admin.crt, ${dir}/admin.key and ${dir}/gateway-ca.crt\n`);
    return 0;
  } finally {
    upstream.close();
  }
}
