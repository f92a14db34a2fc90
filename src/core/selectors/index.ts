// The selector API shared by the embedded apiserver and the gateway's translator.
export type { LabelOperator, LabelRequirement, LabelSelectorObject } from './label-selector.ts';
export { parseLabelSelector, formatLabelSelector, matchesLabels, fromLabelSelectorObject } from './label-selector.ts';
export type { FieldOperator, FieldRequirement } from './field-selector.ts';
export {
  parseFieldSelector, formatFieldSelector, matchesFields, fieldValue, escapeFieldValue, unescapeFieldValue,
} from './field-selector.ts';
export { qualifiedNameErrors, labelValueErrors, dns1123LabelErrors, dns1123SubdomainErrors } from './label-syntax.ts';
