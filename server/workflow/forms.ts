import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import { BizError } from '../http/envelope.js';
import { pageIds, servedPages } from '../pages/index.js';
import { mayReadPage } from '../pages/allowed.js';
import { savedPages } from '../design/store.js';
import { safeRegex } from '../crud/safe-regex.js';
import { allDictItems } from '../sys/dict-service.js';
import { checkFormValues, valuesText } from '../../shared/form-values.js';
import type { FormFieldSchema } from '../../shared/page-schema.js';
import type { ModelMeta } from './engine.js';

/**
 * Forms of the approval workflow: a process's start form (`app:formKey` on the process) and a user task's
 * form (`app:formKey` on the task) are page schemas of kind `form` (schemas/pages/workflow/forms/*.json, or a
 * version saved in the page designer), read through the pages' one loader. Their fields are served by the
 * workflow's own scoped routes (a form page is in nobody's menu) and submitted values are checked against
 * them here (shared/form-values.ts): only the named, editable fields, required, types, ranges, presets.
 */
type Row = Record<string, unknown>;
export interface FormDef {
  /** The page id, or undefined for the built-in default. */
  key?: string;
  title: string;
  fields: FormFieldSchema[];
}

export const FORMS_PREFIX = 'workflow/forms/';
/** The start form of a process that names none. */
export const DEFAULT_START_FORM = 'workflow/forms/GeneralApply';
/** Used only when the default page itself is missing or broken: the fields 发起申请 always had. */
const FALLBACK: FormDef = {
  title: '申请',
  fields: [
    { name: 'title', label: '申请标题', required: true, props: { maxLength: 100 } },
    { name: 'amount', label: '金额（元）', widget: 'NumberPicker', props: { min: 0, max: 10000000 } },
    { name: 'reason', label: '申请事由', widget: 'Input.TextArea', required: true, props: { maxLength: 1000 } },
    { name: 'attachments', label: '附件', widget: 'JUpload' },
  ],
};

/** The fields of a form page (its `form.fields`, or its sections' fields in order). */
function fieldsOf(schema: Row): FormFieldSchema[] {
  const form = (schema.form ?? {}) as { fields?: FormFieldSchema[]; sections?: Array<{ fields?: FormFieldSchema[] }> };
  return form.fields ?? (form.sections ?? []).flatMap((s) => s.fields ?? []);
}

/** A form page by id (undefined when there is none, or it is not a valid page of kind `form` with fields). */
export async function formPage(ctx: ServerContext, key: string, load?: Awaited<ReturnType<typeof servedPages>>): Promise<FormDef | undefined> {
  const p = (load ?? (await servedPages(ctx)))(key);
  if (!p?.schema || p.schema.kind !== 'form') return undefined;
  const fields = fieldsOf(p.schema);
  if (!fields.length) return undefined;
  return { key, title: String(p.schema.title ?? key), fields };
}

/** A process's start form: the page its formKey names, else the default. */
export async function startForm(ctx: ServerContext, meta: ModelMeta): Promise<FormDef> {
  if (meta.formKey) {
    const f = await formPage(ctx, meta.formKey);
    if (!f) throw new BizError(`流程“${meta.name}”的发起表单“${meta.formKey}”不存在，请联系管理员`);
    return f;
  }
  return (await formPage(ctx, DEFAULT_START_FORM)) ?? FALLBACK;
}

/**
 * A task's form: 修改并重新提交 edits the start form; an approval task shows the page its formKey names,
 * else the start form read-only (the applicant's data, nothing to fill in).
 */
export async function taskForm(ctx: ServerContext, meta: ModelMeta, task: { kind?: unknown; form_key?: unknown }): Promise<FormDef> {
  if (task.kind === 'RESUBMIT') return startForm(ctx, meta);
  if (typeof task.form_key === 'string' && task.form_key) {
    const f = await formPage(ctx, task.form_key);
    if (!f) throw new BizError(`任务表单“${task.form_key}”不存在，请联系管理员`);
    return f;
  }
  return readOnlyForm(await startForm(ctx, meta));
}

/** A form with every field read-only (shown, never submitted). */
export const readOnlyForm = (form: FormDef): FormDef => ({ ...form, fields: form.fields.map((f) => ({ ...f, readOnly: true })) });

/**
 * A form with what checking it needs (the system dictionaries). Read before a workflow transaction opens:
 * the page and dictionary reads use the server's own connection, which an open transaction holds on PGlite.
 */
export interface ReadyForm extends FormDef {
  dicts: Awaited<ReturnType<typeof allDictItems>>;
}
export async function ready(ctx: ServerContext, form: FormDef): Promise<ReadyForm> {
  return { ...form, dicts: await allDictItems(ctx.db) };
}

/** Checks submitted values against a form's fields; the values to keep, or a Chinese error naming the field. */
export function checkSubmitted(form: ReadyForm, input: unknown, known?: Row): Row {
  const dicts = Object.fromEntries(Object.entries(form.dicts).map(([code, items]) => [code, items.map((i) => i.value)]));
  const r = checkFormValues(form.fields, input, { dicts, compile: safeRegex, known });
  if (r.error) throw new BizError(r.error);
  return r.values;
}

/** Submitted values as `label → text` for the history step (option values shown as their labels). */
export function historyForm(form: ReadyForm, values: Row): Record<string, string> | undefined {
  if (!Object.keys(values).length) return undefined;
  return valuesText(form.fields, values, (code, v) => form.dicts[code]?.find((i) => i.value === v)?.text);
}

/** Every formKey of a model that names no form page: a Chinese error naming the task (deploy refuses the model). */
export async function missingForms(ctx: ServerContext, meta: ModelMeta): Promise<string | undefined> {
  const load = await servedPages(ctx);
  if (meta.formKey && !(await formPage(ctx, meta.formKey, load))) return `发起表单“${meta.formKey}”不存在（须为表单类页面）`;
  for (const t of Object.values(meta.tasks)) if (t.formKey && !(await formPage(ctx, t.formKey, load))) return `任务“${t.name}”的表单“${t.formKey}”不存在（须为表单类页面）`;
  return undefined;
}

/**
 * The form pages a model author may pick: the pages under workflow/forms/ and the designer-saved pages of
 * kind `form` the author may open.
 */
export async function pickableForms(ctx: ServerContext, user: SessionUser): Promise<Array<{ id: string; title: string }>> {
  const load = await servedPages(ctx);
  const saved = await savedPages(ctx);
  const out: Array<{ id: string; title: string }> = [];
  const alias = (id: string) => id;
  for (const id of new Set([...pageIds().filter((id) => id.startsWith(FORMS_PREFIX)), ...saved.keys()])) {
    const f = await formPage(ctx, id, load);
    if (!f) continue;
    if (!id.startsWith(FORMS_PREFIX) && !(await mayReadPage(ctx, user, id, load, alias))) continue;
    out.push({ id, title: f.title });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
