// Public surface of object validation and defaulting for the registry.
export { validateCreate, validateUpdate } from './validate.ts';
export { validateObjectName, nameRuleFor } from './object-name.ts';
export { applyDefaults, hasDefaults } from './defaults.ts';
