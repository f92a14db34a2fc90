// The tenant's execution spaces (`karmada-es-<cluster>`, where its Works live)
// are made by the engine, not the tenant: this label marks them, so they do not
// count against the tenant's namespace quota.
export const EXECUTION_SPACE_LABEL = 'propagation.warren.dev/execution-space';

/** A label selector term that leaves execution spaces out. */
export const NOT_EXECUTION_SPACE = `!${EXECUTION_SPACE_LABEL}`;
