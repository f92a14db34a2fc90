// Types for lint/layers.js (plain JS: eslint.config.js loads it without a TypeScript step).
import type { Rule } from 'eslint';

export const ALLOWED: Readonly<Record<string, readonly string[]>>;
export function layerOf(rel: string): string | undefined;
export const layersRule: Rule.RuleModule;
declare const plugin: { rules: { layers: Rule.RuleModule } };
export default plugin;
