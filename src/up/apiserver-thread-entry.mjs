// The entry of an embedded apiserver's worker thread (apiserver-thread.ts). Plain JavaScript:
// a worker does not inherit tsx's loader (neither bin/warren's register() nor `--import tsx`,
// measured on Node 20), so it registers tsx itself before importing the TypeScript body.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.bodyUrl);
