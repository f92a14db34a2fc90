// The console's "New tenant" form as a Tenant spec (pure): one admin user,
// the members ticked, and only the quotas filled in. The provisioning API
// checks the result as strictly as any portal's (portal-request.ts).
export interface TenantSpecInput {
  displayName: string;
  admin: string;
  members: string[];
  namespaces: string;
  cpu: string;
  memory: string;
}

export function specFrom(input: TenantSpecInput): Record<string, unknown> {
  const quota: Record<string, unknown> = {};
  if (input.namespaces.trim()) quota.namespaces = Number(input.namespaces);
  if (input.cpu.trim()) quota.cpu = input.cpu.trim();
  if (input.memory.trim()) quota.memory = input.memory.trim();
  return {
    ...(input.displayName.trim() ? { displayName: input.displayName.trim() } : {}),
    users: [{ name: input.admin.trim() || 'admin', admin: true }],
    ...(Object.keys(quota).length > 0 ? { quota } : {}),
    ...(input.members.length > 0 ? { clusters: { names: input.members } } : {}),
  };
}
