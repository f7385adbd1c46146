import type { ComponentType } from 'react';
import { createSchemaField } from '@formily/react';
import { Schema, type ISchema } from '@formily/json-schema';
import { registerValidateRules, setValidateLanguage, type Form } from '@formily/core';
import { allWidgets } from '@widgets/registry';
import { registerBaseWidgets } from '@widgets/base';
import '@widgets/index';
import { evaluate } from '@shared/expr';
import { presetOf } from '@shared/validation-presets';
import type { DictOption } from '@core/dict';
import type { FormFieldSchema, FormSchema } from '@shared/page-schema';
import type { FormMode } from './ListPage';

// Formily's validation messages in Chinese (set here: the shell does not load Formily).
setValidateLanguage('zh-CN');
// `{ "sameAs": "password", "message": "两次输入的密码不一样！" }`: the value must equal another field's (a
// confirmation); an empty value is left to `required`.
registerValidateRules({
  sameAs: (value, rule, ctx: { form?: Form }) => {
    const other = ctx.form?.getValuesIn(String((rule as { sameAs?: unknown }).sameAs));
    return value === undefined || value === null || value === '' || value === other ? '' : (rule.message ?? '两次输入不一致');
  },
});
// Formily's own {{ }} compiler uses `new Function`; every schema expression goes through ours.
Schema.registerCompiler((expression: string, scope: Record<string, unknown>) => evaluate(expression, scope ?? {}));

type SchemaFieldComponent = ComponentType<{ schema: ISchema; scope?: Record<string, unknown> }>;
let field: SchemaFieldComponent | undefined;
/** The SchemaField over every registered widget (created once, after widgets are registered). */
export function schemaField(): SchemaFieldComponent {
  if (!field) {
    registerBaseWidgets();
    field = createSchemaField({ components: allWidgets() }) as unknown as SchemaFieldComponent;
  }
  return field;
}

const DEFAULT_WIDGET = 'Input';

/** `{ "preset": "money" }`: a validation preset of shared/validation-presets.ts as a pattern rule (the server checks the same one). */
function presetRule(rule: unknown): unknown {
  const r = rule as { preset?: unknown; message?: string } | null;
  const p = r && typeof r === 'object' && typeof r.preset === 'string' ? presetOf(r.preset) : undefined;
  if (!p) return rule;
  const { preset: _preset, ...rest } = r as Record<string, unknown>;
  return { ...rest, pattern: p.pattern, message: r!.message ?? p.message };
}

/**
 * `layout.labelCol`: the form layout's label columns (of 24). A field spanning n of the grid's columns
 * gets 1/n of them (rounded: the layout's classes are whole columns), so its label is as wide as its
 * neighbours' and the labels line up.
 */
function fieldSchema(f: FormFieldSchema, dicts: Record<string, DictOption[]>, layout?: { labelCol: number; cols: number }): ISchema {
  // Label columns of a field spanning more than one of the grid's columns (none: the layout's own).
  const span = layout ? Math.min(f.span ?? 1, layout.cols) : 1;
  const spanLabel = span > 1 ? Math.round(layout!.labelCol / span) : undefined;
  const options = f.options ?? (f.dict ? (dicts[f.dict] ?? []).map((d) => ({ label: d.text, value: d.value })) : undefined);
  const widget = f.widget ?? (options ? 'Select' : DEFAULT_WIDGET);
  const reactions: Record<string, unknown> = {};
  if (f.visible !== undefined) reactions.visible = typeof f.visible === 'string' ? f.visible : !!f.visible;
  if (f.disabled !== undefined) reactions.disabled = typeof f.disabled === 'string' ? f.disabled : !!f.disabled;
  return {
    type: widget === 'CheckboxGroup' || widget === 'DateRange' ? 'array' : 'string',
    title: f.label,
    required: f.required,
    default: f.default,
    description: f.description,
    enum: options,
    'x-decorator': 'FormItem',
    'x-decorator-props': f.span && f.span > 1 ? { gridSpan: f.span, ...(spanLabel ? { labelCol: spanLabel, wrapperCol: 24 - spanLabel } : {}) } : undefined,
    'x-component': widget,
    // `readOnly`: the value drawn as text (Formily's read-pretty); a widget without a text view is disabled
    ...(f.readOnly ? { 'x-read-pretty': true } : {}),
    'x-component-props': { 'aria-label': f.label, ...(f.dict ? { dictCode: f.dict } : {}), ...(widget === 'Select' ? { allowClear: true } : {}), ...f.props, ...(f.readOnly ? { disabled: true } : {}) },
    'x-validator': f.rules?.map(presetRule) as ISchema['x-validator'],
    'x-reactions': Object.keys(reactions).length ? { fulfill: { state: reactions } } : undefined,
  };
}

/** A form section of a page schema → Formily JSON Schema (raw `schema` wins over `fields`). */
export function toFormilySchema(form: FormSchema, mode: FormMode, dicts: Record<string, DictOption[]>, labelCol?: number): ISchema {
  if (form.schema) return form.schema as ISchema;
  const cols = form.columns ?? 1;
  const properties: Record<string, ISchema> = {};
  for (const f of form.fields ?? []) if (!f.modes || f.modes.includes(mode)) properties[f.name] = fieldSchema(f, dicts, labelCol ? { labelCol, cols } : undefined);
  return {
    type: 'object',
    properties: {
      // strictAutoFit: a field spanning more columns than its row has left starts the next row (else Formily squeezes it into the rest of the row).
      grid: { type: 'void', 'x-component': 'FormGrid', 'x-component-props': { maxColumns: cols, minColumns: cols, columnGap: 24, strictAutoFit: true }, properties },
    },
  };
}

export function formDictCodes(form: FormSchema | undefined): string[] {
  return (form?.fields ?? []).filter((f) => f.dict && !f.options).map((f) => f.dict!);
}
