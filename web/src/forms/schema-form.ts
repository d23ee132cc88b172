import { withTheme } from '@rjsf/core';
import { Theme } from '@rjsf/mantine';

/**
 * The app's one JSON Schema form: rjsf with its Mantine theme, so that the
 * forms generated from a block's fields look and behave like every other form
 * (label above the input, description and error under it, the same focus ring).
 */
export const SchemaForm = withTheme(Theme);
