// "HOST:PORT", "[::1]:PORT" or ":PORT" → host and port, with a clear error.
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(value);
  if (!match) throw new Error(`--listen must be HOST:PORT, got "${value}"`);
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  if (port < 0 || port > 65535) throw new Error(`--listen port out of range: ${port}`);
  return { host: host || '127.0.0.1', port };
}
