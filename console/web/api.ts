// The console's calls, each with the platform-admin token from sessionStorage
// in the Authorization header (never in a URL, never in localStorage).
// Failures carry the Status message the server sent.
const TOKEN_KEY = 'warren.console.token';

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string): void => sessionStorage.setItem(TOKEN_KEY, value),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

export class ApiFailure extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

let onUnauthorized: () => void = () => undefined;
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export async function call(path: string, init: RequestInit = {}, bearer = token.get()): Promise<Response> {
  const headers = new Headers(init.headers);
  if (bearer) headers.set('Authorization', `Bearer ${bearer}`);
  // The server refuses a change without it (src/console/server/console-routes.ts: cross-site requests).
  headers.set('X-Warren-Console', '1');
  headers.set('Accept', headers.get('Accept') ?? 'application/json');
  const res = await fetch(path, { ...init, headers, cache: 'no-store', credentials: 'omit' });
  if (res.ok) return res;
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { message?: string };
    if (body.message) message = body.message;
  } catch {
    // not a Status: keep the HTTP line
  }
  if (res.status === 401 && bearer === token.get()) onUnauthorized();
  throw new ApiFailure(res.status, message);
}

export async function getJson<T>(path: string): Promise<T> {
  return (await (await call(path)).json()) as T;
}

export async function sendJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await call(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }) });
  return (await res.json()) as T;
}

/** Saves a response body as a file, with the name the server gave it. */
export async function download(path: string): Promise<string> {
  const res = await call(path, { method: 'POST' });
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'kubeconfig';
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
