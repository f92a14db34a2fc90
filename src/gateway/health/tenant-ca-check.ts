// "tenant-ca": the gateway holds the CA that signs tenant client certificates
// (and verifies them on every TLS handshake), with its key, and it is in its
// validity period. Without it no tenant can authenticate by certificate, so a
// replica missing it must not take traffic.
import { X509Certificate } from 'node:crypto';
import { namedCheck, type HealthCheck } from './health-check.ts';

export function createTenantCaCheck(ca: () => { certPem: string; keyPem: string } | undefined, now: () => number = Date.now): HealthCheck {
  return namedCheck('tenant-ca', () => {
    const pair = ca();
    if (!pair?.certPem || !pair.keyPem) return 'tenant CA not loaded';
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(pair.certPem);
    } catch {
      return 'tenant CA certificate unreadable';
    }
    const at = now();
    if (at < Date.parse(cert.validFrom)) return 'tenant CA not yet valid';
    if (at > Date.parse(cert.validTo)) return 'tenant CA expired';
    return undefined;
  });
}
