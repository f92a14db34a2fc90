// Equality-based label matching (nodeSelector, template labels). Owned objects are
// found by owner uid, not by selector, so set-based selectors are not needed here.

export function labelsMatch(required: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!required) return true;
  for (const [key, value] of Object.entries(required)) if (labels?.[key] !== value) return false;
  return true;
}
