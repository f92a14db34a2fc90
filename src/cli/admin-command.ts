// `warren admin token|certificate`: credentials for platform admins and portals
// to use the gateway's provisioning API (/warren/v1/tenants/...).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadGatewaySecrets } from '../tenants/platform-secrets.ts';
import { mintPlatformAdminToken, PLATFORM_ADMINS_GROUP } from '../gateway/portal/platform-admin.ts';
import { issueCertificate } from '../pki/certificates.ts';
import { str, type CommandInput } from './cli-io.ts';
import { hostFlags, hostUpstream } from './host-upstream.ts';

function seconds(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number, not "${text}"`);
  return n;
}

export async function runAdminCommand({ io, values, positionals }: CommandInput): Promise<number> {
  const verb = positionals[0];
  const name = str(values, 'name') ?? 'platform-admin';
  const ttl = seconds(str(values, 'ttl') ?? '3600', '--ttl');
  const days = seconds(str(values, 'days') ?? '30', '--days');
  const dir = str(values, 'out-dir');
  if (verb === 'certificate' && !dir) throw new Error('warren admin certificate needs --out-dir DIR');
  const upstream = hostUpstream(hostFlags(values), io.env);
  try {
    const secrets = await loadGatewaySecrets(upstream);
    if (verb === 'token') {
      io.out(`${await mintPlatformAdminToken(secrets.signingKeys, name, ttl)}\n`);
      return 0;
    }
    if (!dir) throw new Error('warren admin certificate needs --out-dir DIR');
    const cert = await issueCertificate({ ca: secrets.tenantCa, commonName: name, organizations: [PLATFORM_ADMINS_GROUP], lifetimeMs: days * 24 * 3600_000 });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'admin.crt'), cert.certPem, { mode: 0o644 });
    await writeFile(join(dir, 'admin.key'), cert.keyPem, { mode: 0o600 });
    await writeFile(join(dir, 'gateway-ca.crt'), secrets.servingCa.certPem, { mode: 0o644 });
    io.out(`wrote ${dir}/admin.crt, ${dir}/admin.key and ${dir}/gateway-ca.crt\n`);
    return 0;
  } finally {
    upstream.close();
  }
}
