// Security events: an isolation-guard refusal means the translator produced a
// request that would have crossed tenants. It is refused and logged here, with
// enough to reproduce it and nothing of the request body.
import { levelled } from '../observability/log-line.ts';

export interface GuardRefusal {
  tenant: string;
  user: string;
  method: string;
  path: string;
  reason: string;
  /** The request's Audit-ID, as in the audit log and the response header. */
  auditID?: string;
}

export interface SecurityLog {
  guardRefusal(event: GuardRefusal): void;
  count(): number;
}

export function createSecurityLog(write: (line: string) => void): SecurityLog {
  let refusals = 0;
  return {
    guardRefusal(event) {
      refusals++;
      write(levelled('error', 'the isolation guard refused a request', { event: 'isolation-guard-refusal', time: new Date().toISOString(), ...event }));
    },
    count: () => refusals,
  };
}
