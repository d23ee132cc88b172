import { withTheme } from '@rjsf/core';
import { Theme } from '@rjsf/mantine';
import type { BaseInputTemplateProps } from '@rjsf/utils';
import { createElement, type ComponentType } from 'react';

const BaseInput = Theme.templates!.BaseInputTemplate as ComponentType<BaseInputTemplateProps>;

/**
 * The theme's text and number input, always controlled: a cleared input is no
 * value to rjsf (undefined), which the theme handed to Mantine as is, so React
 * saw the input go uncontrolled and back ("changing an uncontrolled input to
 * be controlled"). It shows '' for no value; what rjsf stores is unchanged.
 */
function ControlledInput(props: BaseInputTemplateProps) {
  return createElement(BaseInput, { ...props, value: props.value ?? '' });
}

/**
 * The app's one JSON Schema form: rjsf with its Mantine theme, so that the
 * forms generated from a block's fields look and behave like every other form
 * (label above the input, description and error under it, the same focus ring).
 */
export const SchemaForm = withTheme({
  ...Theme,
  templates: { ...Theme.templates, BaseInputTemplate: ControlledInput },
});
