// Parses a request line into what it asks of the API, the way kube-apiserver's
// RequestInfoFactory does. Shared by the embedded apiserver and the gateway, so
// both agree on what a path means. Paths with empty, "." or ".." segments are
// refused outright: nothing downstream should ever have to reason about them.
import { ApiError, methodNotAllowed } from './api-error.ts';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  verb: string;
  apiPrefix: string; // 'api' | 'apis' | ''
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the version, decoded. */
  parts: string[];
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const HTTP_VERBS: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

const LONE_SURROGATE = /\p{Cs}/u;

export function splitPath(rawPath: string): string[] {
  const trimmed = rawPath.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return [];
  const segments = trimmed.split('/');
  return segments.map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new ApiError('BadRequest', `invalid path segment ${JSON.stringify(segment)}`);
    }
    // A lone surrogate (only in a path that was never percent-encoded) could not be encoded again for upstream.
    if (decoded === '' || decoded === '.' || decoded === '..' || decoded.includes('/') || LONE_SURROGATE.test(decoded)) {
      throw new ApiError('BadRequest', `invalid path ${JSON.stringify(rawPath)}`);
    }
    return decoded;
  });
}

function isWatchQuery(query: URLSearchParams): boolean {
  const watch = query.get('watch');
  return watch === 'true' || watch === '1';
}

/**
 * @param method HTTP method
 * @param rawPath the URL path, still percent-encoded
 * @param query the URL's query
 */
export function parseRequestInfo(method: string, rawPath: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false, path: rawPath, verb: (method || 'GET').toLowerCase(), apiPrefix: '', apiGroup: '',
    apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [],
  };
  const segments = splitPath(rawPath);
  const prefix = segments[0];
  if (prefix !== 'api' && prefix !== 'apis') return info;
  info.apiPrefix = prefix;
  let rest = segments.slice(1);
  if (prefix === 'apis') {
    if (rest.length < 2) return info; // /apis, /apis/<group>: discovery
    info.apiGroup = rest[0] ?? '';
    rest = rest.slice(1);
  } else if (rest.length < 1) {
    return info; // /api: discovery
  }
  info.apiVersion = rest[0] ?? '';
  rest = rest.slice(1);
  if (rest.length === 0) return info; // /api/v1, /apis/g/v: discovery
  info.isResourceRequest = true;
  info.verb = HTTP_VERBS[method.toUpperCase()] ?? method.toLowerCase();

  // Legacy /watch/ prefix: /api/v1/watch/namespaces/ns/pods
  if (rest[0] === 'watch') {
    // Only GET is served under /watch/ (kube registers no other method there).
    if (method.toUpperCase() !== 'GET' && method.toUpperCase() !== 'HEAD') throw methodNotAllowed();
    info.verb = 'watch';
    rest = rest.slice(1);
  }
  // As in kube-apiserver: /namespaces/<ns>/<resource>/... is namespaced; /namespaces/<name>
  // and /namespaces/<name>/{status,finalize} address the Namespace itself, with
  // namespace set to its own name (so namespaced RBAC can grant access to it).
  if (rest[0] === 'namespaces' && rest.length > 1) {
    info.namespace = rest[1] ?? '';
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  info.parts = rest;
  info.resource = rest[0] ?? '';
  info.name = rest[1] ?? '';
  info.subresource = rest[2] ?? '';
  if (rest.length > 3) throw new ApiError('NotFound', 'the server could not find the requested resource');

  if (info.verb === 'get' && info.name === '') info.verb = isWatchQuery(query) ? 'watch' : 'list';
  else if (info.verb === 'get' && isWatchQuery(query) && info.subresource === '') info.verb = 'watch';
  if (info.verb === 'delete' && info.name === '') info.verb = 'deletecollection';
  return info;
}
