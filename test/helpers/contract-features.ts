// What the apiserver under contract serves, found by asking it (discovery,
// /version, a probe of the path), never by knowing which server it is: a test
// of something a server does not have skips with the reason, and a test of a
// behaviour kube changed between versions expects that version's answer.
import type { KubeHttp } from './kube-http.ts';

/** The server's minor version from /version ("20", "31+" → 20, 31). */
export async function serverMinor(http: KubeHttp): Promise<number> {
  const res = await http.get('/version');
  const minor = Number.parseInt(String(res.body?.minor ?? ''), 10);
  if (!Number.isFinite(minor)) throw new Error(`/version has no minor: ${res.text}`);
  return minor;
}

/** Whether discovery lists `resource` in group version `gv` ("v1", "batch/v1"). */
export async function servesResource(http: KubeHttp, gv: string, resource: string): Promise<boolean> {
  const res = await http.get(gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`);
  if (res.status !== 200) return false;
  return (res.body?.resources ?? []).some((r: { name?: string }) => r.name === resource);
}

/** A skip reason when discovery does not list the resource, for `it(..., { skip })` inside a test. */
export async function unlessServed(http: KubeHttp, gv: string, resource: string): Promise<string | undefined> {
  return (await servesResource(http, gv, resource)) ? undefined : `the server does not serve ${resource} in ${gv}`;
}

/** Server-side field validation (?fieldValidation=) is on by default from 1.25; older servers ignore the parameter. */
export async function hasFieldValidation(http: KubeHttp): Promise<boolean> {
  return (await serverMinor(http)) >= 25;
}
