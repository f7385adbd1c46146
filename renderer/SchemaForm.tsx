import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Spin } from 'antd';
import type { Form } from '@formily/core';
import { FormProvider } from '@formily/react';
import { FormLayout } from '@formily/antd-v5';
import { loadDicts, type DictOption } from '@core/dict';
import type { FormSchema } from '@shared/page-schema';
import { formDictCodes, schemaField, toFormilySchema } from './formily';
import { useSessionScope } from './scope';
import type { FormMode } from './ListPage';

type Row = Record<string, unknown>;

/**
 * One form body for every form the renderer draws — the list's add/edit modal, a form page and its
 * sections, an action's small form: the fields of a `FormSchema` through Formily (renderer/formily.tsx),
 * the session scope and `$record` / `$mode` in their expressions. Draws a spinner until the fields'
 * dictionaries have arrived.
 */
export function SchemaFormBody({ form, schema, mode, record, labelCol, wrapperCol, layout, extraDicts, children }: {
  form: Form;
  schema: FormSchema;
  mode: FormMode;
  record?: Row;
  labelCol?: number;
  wrapperCol?: number;
  layout?: 'horizontal' | 'vertical';
  /** More dictionary codes to load with the fields' (e.g. sub-table columns). */
  extraDicts?: string[];
  children?: (dicts: Record<string, DictOption[]>) => ReactNode;
}) {
  const { scope } = useSessionScope();
  const [dicts, setDicts] = useState<Record<string, DictOption[]> | null>(null);
  const codes = useMemo(() => [...formDictCodes(schema), ...(extraDicts ?? [])].join(','), [schema, extraDicts]);
  useEffect(() => {
    let live = true;
    void loadDicts(codes ? codes.split(',') : []).then((d) => live && setDicts(d));
    return () => {
      live = false;
    };
  }, [codes]);
  const fs = useMemo(() => (dicts ? toFormilySchema(schema, mode, dicts, layout === 'vertical' ? undefined : labelCol) : null), [dicts, schema, mode, labelCol, layout]);
  const SchemaField = schemaField();
  if (!fs) return <Spin />;
  return (
    <FormProvider form={form}>
      <FormLayout layout={layout} labelCol={layout === 'vertical' ? undefined : labelCol} wrapperCol={layout === 'vertical' ? undefined : wrapperCol}>
        <SchemaField schema={fs} scope={{ ...scope, $record: record ?? {}, $mode: mode }} />
      </FormLayout>
      {children?.(dicts!)}
    </FormProvider>
  );
}

/** A record as a form's initial values: dictionary values are strings, integer columns come back as numbers. */
export function initialValuesOf(schema: FormSchema, record?: Row): Row | undefined {
  if (!record) return undefined;
  const initial = { ...record };
  for (const f of schema.fields ?? []) if ((f.dict || f.options?.some((o) => typeof o.value === 'string')) && typeof initial[f.name] === 'number') initial[f.name] = String(initial[f.name]);
  return initial;
}
