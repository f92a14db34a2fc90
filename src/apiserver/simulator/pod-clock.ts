// In-memory lifecycle bookkeeping of simulated pods: when each pod started
// Pending and Running (status times have second precision, too coarse for
// sub-second delays), and pod IPs handed out per node. Lost on restart, which
// only means a restarted simulator moves pods along without waiting again.

export class PodClock {
  private readonly pendingSince = new Map<string, number>();
  private readonly runningSince = new Map<string, number>();
  private readonly nextIp = new Map<string, number>();

  markPending(uid: string, now: number): void {
    if (!this.pendingSince.has(uid)) this.pendingSince.set(uid, now);
  }

  /** ms since the pod was first seen Pending; Infinity when unknown (e.g. after a restart). */
  pendingFor(uid: string, now: number): number {
    const since = this.pendingSince.get(uid);
    return since === undefined ? Infinity : now - since;
  }

  markRunning(uid: string, now: number): void {
    this.pendingSince.delete(uid);
    if (!this.runningSince.has(uid)) this.runningSince.set(uid, now);
  }

  runningFor(uid: string, now: number): number {
    const since = this.runningSince.get(uid);
    return since === undefined ? Infinity : now - since;
  }

  forget(uid: string): void {
    this.pendingSince.delete(uid);
    this.runningSince.delete(uid);
  }

  /**
   * Next pod IP inside a node's /16 pod CIDR ("10.101.0.0/16"), the last octet
   * running 1..254. Sequential, wrapping after ~65k pods per node.
   */
  allocateIp(podCidr: string | undefined): string {
    const match = /^(\d+)\.(\d+)\.0\.0\/16$/.exec(podCidr ?? '');
    const prefix = match ? `${match[1]}.${match[2]}` : '10.255';
    const n = ((this.nextIp.get(prefix) ?? 0) % (256 * 254)) + 1;
    const third = Math.floor((n - 1) / 254);
    const fourth = ((n - 1) % 254) + 1;
    this.nextIp.set(prefix, n);
    return `${prefix}.${third}.${fourth}`;
  }
}
