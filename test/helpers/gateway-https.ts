// HTTPS GETs to a gateway as a user would make them: a bearer token or a
// client certificate, trusting the gateway's CA; and those parts read from a
// tenant kubeconfig (the console tests in the browser and real tiers).
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { parse } from 'yaml';

export interface GatewayAnswer { status: number; headers: Record<string, string | string[] | undefined>; body: string }
export interface GatewayAuth { ca: string; cert?: string; key?: string; token?: string }

export function gatewayGet(url: string, auth: GatewayAuth): Promise<GatewayAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      ca: auth.ca, ...(auth.cert ? { cert: auth.cert, key: auth.key } : {}),
      headers: auth.token ? { Authorization: `Bearer ${auth.token}` } : {},
    }, (res) => {
      let body = '';
      res.on('data', (d) => { body += String(d); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The CA, client certificate and key a kubeconfig's first cluster and user carry. */
export function kubeconfigParts(path: string): { ca: string; cert: string; key: string } {
  const kc = parse(readFileSync(path, 'utf8')) as { clusters: { cluster: Record<string, string> }[]; users: { user: Record<string, string> }[] };
  const b64 = (v: string | undefined): string => Buffer.from(v ?? '', 'base64').toString('utf8');
  return { ca: b64(kc.clusters[0]?.cluster['certificate-authority-data']), cert: b64(kc.users[0]?.user['client-certificate-data']), key: b64(kc.users[0]?.user['client-key-data']) };
}
