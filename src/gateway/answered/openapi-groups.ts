// Which API groups of an upstream OpenAPI document a tenant may see, and the
// tenant's spelling of the text that names its own prefixed groups.
import { upstreamGroupView } from '../../core/tenancy/resource-classes.ts';
import { tenantPrefix } from '../../core/tenancy/tenant-id.ts';

/** The tenant's spelling of an upstream group; undefined when it belongs to another tenant. */
export function visibleGroupOf(id: string, upstreamGroup: string): string | undefined {
  return upstreamGroupView(id, upstreamGroup)?.group;
}

/**
 * Rewrites every mention of the tenant's prefix in a document that, after filtering,
 * can only name this tenant's own objects: group names ("<id>-a.com"), reversed
 * definition names ("com.<id>-a.v1.Foo") and CRD names ("foos.<id>-a.com").
 */
export function tenantViewOfText(id: string, text: string): string {
  const prefix = tenantPrefix(id);
  return text.split(prefix).join('');
}
