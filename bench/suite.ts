// What every suite gets and gives back. Suites measure the same thing on every
// target in `targets`, and report one Row per metric with a column per target.
import type { Target } from './targets/targets.ts';
import type { Row } from './report.ts';

export interface BenchEnv {
  repoRoot: string;
  /** embedded, floor, floor-tls: started once, shared by the suites that measure a loaded server. */
  targets: Target[];
  /** Extra node flags for servers a suite starts itself (e.g. --cpu-prof). */
  serverNodeFlags: string[];
  log(message: string): void;
}

export interface SuiteResult {
  rows: Row[];
  notes: string[];
}

export interface Suite {
  name: string;
  /** One line on what is measured and how, printed in the report. */
  method: string;
  /**
   * Starts its own servers and does not use `targets` (real-overhead: a real kube-apiserver):
   * run only when named, without the shared targets and the writes seed, and not in a full run.
   */
  standalone?: boolean;
  /**
   * Starts its own servers but belongs in a full run (write-throughput): named alone, it runs
   * without the shared targets and the writes seed, which it does not read.
   */
  ownServers?: boolean;
  run(env: BenchEnv): Promise<SuiteResult>;
}

type Column = 'embedded' | 'floor' | 'floorTls';
const COLUMN_OF: Record<string, Column> = { embedded: 'embedded', floor: 'floor', 'floor-tls': 'floorTls' };

/** A row from per-target values keyed by target name. */
export function rowOf(suite: string, metric: string, unit: string, values: Record<string, number>, verdict?: { goal: string; pass: boolean }): Row {
  const row: Row = { suite, metric, unit, ...verdict };
  for (const [name, value] of Object.entries(values)) {
    const column = COLUMN_OF[name];
    if (column) row[column] = value;
  }
  return row;
}
