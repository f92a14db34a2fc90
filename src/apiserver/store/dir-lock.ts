// One process per store directory: two writers appending to one log would
// interleave records. The lock file holds the owner's pid; a lock left by a
// process that no longer exists (kill -9) is taken over.
import * as fs from 'node:fs';
import { join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireLock(dir: string): void {
  const path = join(dir, 'lock');
  try {
    fs.writeFileSync(path, String(process.pid), { flag: 'wx' });
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const owner = Number(fs.readFileSync(path, 'utf8').trim());
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
    throw new Error(`store ${dir} is in use by process ${owner}`);
  }
  if (owner === process.pid) throw new Error(`store ${dir} is already open in this process`);
  fs.writeFileSync(path, String(process.pid));
}

export function releaseLock(dir: string): void {
  try {
    const path = join(dir, 'lock');
    if (fs.readFileSync(path, 'utf8').trim() === String(process.pid)) fs.rmSync(path);
  } catch {
    /* already gone */
  }
}
