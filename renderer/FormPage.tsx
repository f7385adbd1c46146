import { useEffect, useMemo, useState } from 'react';
import { App, Card, Spin } from 'antd';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import { FormButtonGroup, FormLayout, Reset, Submit } from '@formily/antd-v5';
import { http } from '@core/http/client';
import { loadDicts, type DictOption } from '@core/dict';
import { formDictCodes, schemaField, toFormilySchema } from './formily';
import { urlsOf, useSessionScope } from './scope';
import type { PageSchema } from '@shared/page-schema';

/** A page-level form (kind "form"): submits to api.add, else just validates. */
export default function FormPage({ schema }: { schema: PageSchema }) {
  const { message } = App.useApp();
  const { scope } = useSessionScope();
  const [dicts, setDicts] = useState<Record<string, DictOption[]> | null>(null);
  const form = useMemo(() => createForm(), []);
  const f = useMemo(() => schema.form ?? { fields: [] }, [schema.form]);
  useEffect(() => {
    void loadDicts(formDictCodes(f)).then(setDicts);
  }, [f]);
  const fs = useMemo(() => (dicts ? toFormilySchema(f, 'add', dicts) : null), [dicts, f]);
  const SchemaField = schemaField();
  const url = urlsOf(schema).add;
  return (
    <Card bordered={false} title={schema.title}>
      {schema.description && <p style={{ color: 'rgba(0,0,0,.45)' }}>{schema.description}</p>}
      {!fs ? (
        <Spin />
      ) : (
        <FormProvider form={form}>
          <FormLayout labelCol={6} wrapperCol={12}>
            <SchemaField schema={fs} scope={{ ...scope, $record: {}, $mode: 'add' }} />
            <FormButtonGroup.FormItem>
              <Submit
                onSubmit={async (values: Record<string, unknown>) => {
                  if (!url) {
                    message.success('提交成功');
                    return;
                  }
                  const r = await http.post(url, values);
                  if (r.success) message.success(r.message);
                  else message.warning(r.message);
                }}
                onSubmitFailed={() => undefined}
              >
                {f.submitText ?? '提交'}
              </Submit>
              <Reset>重置</Reset>
            </FormButtonGroup.FormItem>
          </FormLayout>
        </FormProvider>
      )}
    </Card>
  );
}
