// Identity from a TLS client certificate signed by Warren's tenant CA:
// CN=<user>, OU=<tenant id>, O=<group>... The listener (tls-listener.ts) has
// already dropped connections whose certificate does not verify; this file
// re-checks `authorized` and the validity window anyway, so a listener set up
// without the hook still cannot let a foreign or expired certificate through.
import type { Socket } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { isTenantId } from '../../core/tenancy/tenant-id.ts';
import type { Identity } from '../identity.ts';
import { unauthorized } from './unauthorized.ts';
import { isTenantUid, tenantUidsOfSubjectAltName } from '../../tenants/credentials/tenant-binding.ts';

const CLIENT_AUTH_EKU = '1.3.6.1.5.5.7.3.2';

function isTlsSocket(socket: Socket): socket is TLSSocket {
  return (socket as Partial<TLSSocket>).encrypted === true && typeof (socket as TLSSocket).getPeerCertificate === 'function';
}

/** Node gives a repeated RDN (O=a, O=b) as an array and a single one as a string. */
function values(field: string | string[] | undefined): string[] {
  if (field === undefined) return [];
  return Array.isArray(field) ? field : [field];
}

/** Whether the client presented a certificate at all (Node returns `{}` when it did not). */
export function presentedCertificate(socket: TLSSocket): PeerCertificate | undefined {
  const cert = socket.getPeerCertificate();
  return cert && Object.keys(cert).length > 0 ? cert : undefined;
}

/** Pure mapping from a verified certificate's fields to an Identity; throws 401 for a subject that breaks the convention. */
export function identityFromPeerCertificate(cert: PeerCertificate, now = new Date()): Identity {
  const validFrom = new Date(cert.valid_from);
  const validTo = new Date(cert.valid_to);
  if (Number.isNaN(validFrom.getTime()) || Number.isNaN(validTo.getTime())) throw unauthorized('client certificate has unreadable validity dates');
  if (now < validFrom || now > validTo) throw unauthorized(`client certificate is outside its validity window (${cert.valid_from} – ${cert.valid_to})`);
  if (cert.ext_key_usage !== undefined && !cert.ext_key_usage.includes(CLIENT_AUTH_EKU)) throw unauthorized('client certificate is not for client authentication');
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined>;
  const cn = values(subject.CN);
  const ou = values(subject.OU);
  // Exactly one CN and one OU: a second one would make the user or tenant ambiguous.
  if (cn.length !== 1 || cn[0] === '') throw unauthorized('client certificate needs exactly one CN (the user)');
  if (ou.length !== 1 || !isTenantId(ou[0] ?? '')) throw unauthorized('client certificate needs exactly one OU holding a tenant id');
  // At most one Tenant uid: two would make the Tenant the certificate is bound to ambiguous.
  const uids = tenantUidsOfSubjectAltName(cert.subjectaltname);
  if (uids.length > 1 || (uids[0] !== undefined && !isTenantUid(uids[0]))) throw unauthorized('client certificate names more than one tenant uid, or a malformed one');
  const identity: Identity = {
    tenantId: ou[0] as string,
    user: cn[0] as string,
    groups: values(subject.O),
    via: 'certificate',
    issuedAt: validFrom,
  };
  if (uids[0] !== undefined) identity.tenantUid = uids[0];
  return identity;
}

/**
 * The identity carried by the connection's client certificate; undefined when
 * the connection has none (plain TCP, or TLS without a certificate), so the
 * caller can try a bearer token next.
 */
export function identityFromClientCertificate(socket: Socket, now = new Date()): Identity | undefined {
  if (!isTlsSocket(socket)) return undefined;
  const cert = presentedCertificate(socket);
  if (!cert) return undefined;
  if (!socket.authorized) throw unauthorized(`client certificate did not verify: ${String(socket.authorizationError)}`);
  return identityFromPeerCertificate(cert, now);
}
