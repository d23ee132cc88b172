export {
  FIELD_TYPES,
  NAME_PATTERN,
  RESERVED_NAMES,
  validateSchemaContent,
  DEFINITION_KEYS,
  type BindingDefault,
  type KnownCatalog,
  type FieldDefinition,
  type FieldType,
  type ItemDefinition,
  type SchemaCheck,
} from './field-definitions.js';
export {
  bindingSlots,
  compilePlaceholderSchema,
  fieldSchema,
  type BindingSlot,
  type JsonSchema,
} from './json-schema.js';
export { MARKDOWN_SAMPLE, buildExample, simplestValue } from './example.js';
export { computeVersionBump, removedFields, type RevisionContent } from './version-bump.js';
export { ValidatorCache, type ValidatorCacheOptions } from './validator-cache.js';
export { sanitizeRichTextValues, type Sanitize } from './richtext-values.js';
export { fillDefaults, renderDefaults, type RenderDefaults } from './render-defaults.js';
export { imageSpots, type ImageSpot, type ImageSpots } from './image-spots.js';
