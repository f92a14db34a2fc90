// Which requests are long-running: kube-apiserver's rule (verbs watch and
// proxy; subresources attach, exec, log, portforward, proxy). As in APF, they
// do not hold a seat for their lifetime, or a tenant's watches alone would
// use up its share and a handful of `kubectl logs -f` would lock it out.
import type { RequestInfo } from '../../core/request-info.ts';

const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'log', 'portforward', 'proxy']);

export function isLongRunning(info: Pick<RequestInfo, 'isResourceRequest' | 'verb' | 'subresource'>): boolean {
  if (!info.isResourceRequest) return false;
  return LONG_RUNNING_VERBS.has(info.verb) || LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}
