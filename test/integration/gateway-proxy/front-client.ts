// Plain HTTP and raw-socket clients for the proxy front.
import http from 'node:http';
import net from 'node:net';

export interface Reply { status: number; headers: http.IncomingHttpHeaders; text: string; body: any }

export async function call(port: number, method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return await new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any;
        try { body = JSON.parse(text); } catch { body = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Opens a streaming GET and returns the live response (for watches). */
export async function openStream(port: number, path: string, headers: Record<string, string> = {}): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
  return await new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => resolve({ req, res }));
    req.on('error', reject);
    req.end();
  });
}

/** Reads newline-delimited JSON from a stream until `want` lines have arrived. */
export async function readLines(res: http.IncomingMessage, want: number, timeoutMs = 5_000): Promise<any[]> {
  const lines: any[] = [];
  let buffer = '';
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${lines.length} of ${want} lines in ${timeoutMs}ms`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) lines.push(JSON.parse(line));
      }
      if (lines.length >= want) { clearTimeout(timer); res.off('data', onData); resolve(lines); }
    };
    res.on('data', onData);
  });
}

/** Sends a raw request on a fresh socket and resolves with the response head and the socket (for upgrades). */
export async function rawRequest(port: number, request: string): Promise<{ head: string; socket: net.Socket; rest: Buffer }> {
  const socket = net.connect(port, '127.0.0.1');
  return await new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      resolve({ head: received.subarray(0, end).toString('latin1'), socket, rest: received.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.on('error', reject);
    socket.write(request);
  });
}

/** Reads from a socket until `text` has arrived (after `already`). */
export async function readUntil(socket: net.Socket, text: string, already: Buffer = Buffer.alloc(0), timeoutMs = 5_000): Promise<string> {
  let got = already.toString('latin1');
  if (got.includes(text)) return got;
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not see ${JSON.stringify(text)}; got ${JSON.stringify(got)}`)), timeoutMs);
    const finish = (): void => { clearTimeout(timer); socket.off('data', onData); resolve(got); };
    const onData = (chunk: Buffer): void => { got += chunk.toString('latin1'); if (got.includes(text)) finish(); };
    socket.on('data', onData);
    socket.on('end', () => { clearTimeout(timer); resolve(got); });
    socket.resume();
  });
}
