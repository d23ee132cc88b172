export { FIELD_TYPES, validateSchemaContent, type FieldDefinition, type FieldType, type ItemDefinition, type SchemaCheck } from './field-definitions.js';
export { bindingSlots, compilePlaceholderSchema, fieldSchema, type BindingSlot, type JsonSchema } from './json-schema.js';
export { buildExample } from './example.js';
export { computeVersionBump, removedFields, type RevisionContent } from './version-bump.js';
export { ValuesValidator } from './values-validator.js';
