import { EventEmitter } from 'node:events';
import { Engine } from 'bpmn-engine';
import { BpmnModdle } from 'bpmn-moddle';
import { BizError } from '../http/envelope.js';
import { evaluate, parse } from '../../shared/expr.js';

/**
 * The BPMN side of the approval workflow: the `app:` moddle extension (our per-task attributes), model
 * validation, and one engine step — a new bpmn-engine Engine per step, recovered from the stored
 * state, resumed, optionally signalled — with scripts disabled, expressions through shared/expr.ts and
 * timers handed to the database (wf_timer) instead of setTimeout.
 */
export const APP_URI = 'http://supervise.edu/schema/bpmn/app';
export const appModdle = {
  name: 'app',
  prefix: 'app',
  uri: APP_URI,
  xml: { tagAlias: 'lowerCase' },
  types: [
    {
      name: 'Assignable',
      isAbstract: true,
      extends: ['bpmn:UserTask'],
      properties: [
        { name: 'assignee', isAttr: true, type: 'String' },
        { name: 'countersign', isAttr: true, type: 'String' },
        { name: 'formKey', isAttr: true, type: 'String' },
        { name: 'dueTime', isAttr: true, type: 'String' },
        { name: 'onTimeout', isAttr: true, type: 'String' },
      ],
    },
    {
      name: 'Collection',
      isAbstract: true,
      extends: ['bpmn:MultiInstanceLoopCharacteristics'],
      properties: [
        { name: 'collection', isAttr: true, type: 'String' },
        { name: 'elementVariable', isAttr: true, type: 'String' },
      ],
    },
    {
      name: 'Startable',
      isAbstract: true,
      extends: ['bpmn:Process'],
      properties: [{ name: 'formKey', isAttr: true, type: 'String' }],
    },
  ],
};

export const MAX_XML = 512 * 1024;
/** Assignee forms: user:<username,…> · role:<code> · leader · secretary · applicant · expr:<expression over the form>. */
const ASSIGNEE = /^(user:[\w.@-]+(,[\w.@-]+)*|role:[\w-]+|leader|secretary|applicant|expr:.+)$/s;
const COUNTERSIGN = /^(all|any|(100|[1-9]\d?)%)$/;
const DURATION = /^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;
const ON_TIMEOUT = /^(notify|approve|reject)$/;

export interface TaskMeta {
  id: string;
  name: string;
  assignee: string;
  countersign?: string;
  formKey?: string;
  dueTime?: string;
  onTimeout?: string;
}
export interface ModelMeta {
  processId: string;
  name: string;
  formKey?: string;
  tasks: Record<string, TaskMeta>;
  /** Element id → name, for history and the diagram. */
  names: Record<string, string>;
}

const FORBIDDEN = new Set(['bpmn:ScriptTask', 'bpmn:ServiceTask', 'bpmn:SendTask', 'bpmn:BusinessRuleTask', 'bpmn:CallActivity', 'bpmn:SubProcess', 'bpmn:Transaction']);
const EXPR = /\$\{([\s\S]+?)\}/g;

function checkExpression(text: string, where: string) {
  for (const m of text.matchAll(EXPR)) {
    const inner = m[1]!.trim();
    if (inner.startsWith('$')) continue; // our own hooks ($assignees, $countersignDone)
    try {
      parse(inner);
    } catch (e) {
      throw new BizError(`${where}的表达式有误：${inner.slice(0, 80)}（${(e as Error).message}）`);
    }
  }
}

/** Parses and checks a model: size, well-formed BPMN (moddle warnings are errors), supported elements, our attributes. */
export async function validateModel(xml: unknown): Promise<ModelMeta> {
  if (typeof xml !== 'string' || !xml.trim()) throw new BizError('流程定义不能为空');
  if (Buffer.byteLength(xml) > MAX_XML) throw new BizError(`流程定义过大（上限${MAX_XML / 1024}KB）`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new BizError('流程定义不能包含DOCTYPE');
  let parsed: Awaited<ReturnType<BpmnModdle['fromXML']>>;
  try {
    parsed = await new BpmnModdle({ app: appModdle }).fromXML(xml);
  } catch (e) {
    throw new BizError(`流程定义不是有效的BPMN：${(e as Error).message.split('\n')[0]!.slice(0, 200)}`);
  }
  if (parsed.warnings.length) throw new BizError(`流程定义有误：${String(parsed.warnings[0]!.message).split('\n')[0]!.slice(0, 200)}`);
  const root = parsed.rootElement as any;
  const processes = (root.rootElements ?? []).filter((e: any) => e.$type === 'bpmn:Process');
  if (processes.length !== 1) throw new BizError('流程定义必须包含且只包含一个流程');
  const proc = processes[0];
  const elements: any[] = proc.flowElements ?? [];
  const meta: ModelMeta = { processId: proc.id, name: proc.name ?? proc.id, formKey: proc.formKey, tasks: {}, names: {} };
  if (!elements.some((e) => e.$type === 'bpmn:StartEvent')) throw new BizError('流程缺少开始事件');
  if (!elements.some((e) => e.$type === 'bpmn:EndEvent')) throw new BizError('流程缺少结束事件');
  for (const el of elements) {
    const label = `“${el.name ?? el.id}”`;
    meta.names[el.id] = el.name ?? el.id;
    if (FORBIDDEN.has(el.$type)) throw new BizError(`不支持的节点类型：${label}（${String(el.$type).replace('bpmn:', '')}）`);
    if (el.$type === 'bpmn:SequenceFlow' && el.conditionExpression) {
      const c = el.conditionExpression;
      if (c.language) throw new BizError(`连线${label}的条件不能指定脚本语言`);
      checkExpression(String(c.body ?? ''), `连线${label}`);
    }
    for (const d of el.eventDefinitions ?? []) {
      for (const k of ['timeDuration', 'timeDate', 'timeCycle']) if (d[k]) checkExpression(String(d[k].body ?? ''), `定时${label}`);
    }
    if (el.$type !== 'bpmn:UserTask') continue;
    const assignee = String(el.assignee ?? '').trim();
    const loop = el.loopCharacteristics;
    if (!assignee) throw new BizError(`用户任务${label}未设置处理人`);
    if (!ASSIGNEE.test(assignee)) throw new BizError(`用户任务${label}的处理人格式有误：${assignee.slice(0, 80)}`);
    if (assignee.startsWith('expr:')) checkExpression(`\${${assignee.slice(5)}}`, `用户任务${label}的处理人`);
    if (el.countersign && !COUNTERSIGN.test(el.countersign)) throw new BizError(`用户任务${label}的会签方式有误（all / any / 百分比）`);
    if (el.countersign && (!loop || loop.$type !== 'bpmn:MultiInstanceLoopCharacteristics')) throw new BizError(`会签任务${label}需要多实例设置`);
    if (loop && !el.countersign) throw new BizError(`多实例任务${label}需要设置会签方式`);
    if (loop && loop.collection !== '${$assignees}') throw new BizError(`会签任务${label}的集合必须是 \${$assignees}`);
    if (loop?.completionCondition) checkExpression(String(loop.completionCondition.body ?? ''), `会签任务${label}`);
    if (el.dueTime && !DURATION.test(el.dueTime)) throw new BizError(`用户任务${label}的期限格式有误（如 PT24H、P3D）`);
    if (el.onTimeout && !ON_TIMEOUT.test(el.onTimeout)) throw new BizError(`用户任务${label}的超时处理有误（notify / approve / reject）`);
    meta.tasks[el.id] = {
      id: el.id, name: el.name ?? el.id, assignee, countersign: el.countersign || undefined, formKey: el.formKey || undefined,
      dueTime: el.dueTime || undefined, onTimeout: el.onTimeout || undefined,
    };
  }
  if (!Object.keys(meta.tasks).length) throw new BizError('流程至少需要一个用户任务');
  return meta;
}

/** ISO 8601 duration (PnDTnHnMnS) in milliseconds. */
export function durationMs(d: string): number {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(d);
  if (!m) return 0;
  return ((Number(m[1] ?? 0) * 24 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 60_000 + Number(m[4] ?? 0) * 1000;
}

export interface Wait {
  elementId: string;
  executionId: string;
  /** The user of a countersign instance (the element variable). */
  assignee?: string;
  multi?: boolean;
}
export interface TimerSet {
  executionId: string;
  elementId: string;
  dueAt: Date;
}
export interface StepInput {
  xml: string;
  meta: ModelMeta;
  /** Stored engine state; absent → a fresh execution with `variables`. */
  state?: unknown;
  variables: Record<string, unknown>;
  /** elementId → user ids (resolved before the step; the $assignees collection of countersigns). */
  assignees: Record<string, string[]>;
  /** Replays recorded outputs: elementId → outputs in order (reject to the previous step). */
  replay?: Record<string, Array<Record<string, unknown>>>;
}
export interface StepResult {
  state: unknown;
  waiting: Wait[];
  timers: TimerSet[];
  completed: boolean;
  /** Activities that ended during the step (history, the viewer's path). */
  ended: Array<{ elementId: string; executionId: string }>;
  /** Sequence flows taken during the step. */
  flows: string[];
}

const countersignDone = (mode: string, outputs: unknown[], total: number) => {
  const votes = outputs.filter(Boolean) as Array<{ decision?: string }>;
  const approved = votes.filter((o) => o.decision === 'approve').length;
  const rejected = votes.filter((o) => o.decision === 'reject').length;
  if (mode === 'all') return rejected > 0;
  if (mode === 'any') return approved > 0;
  const pct = Number(mode.replace('%', ''));
  return approved * 100 >= total * pct || rejected * 100 > total * (100 - pct);
};

function makeExpressions(input: StepInput) {
  const scopeOf = (from: any) => ({ ...input.variables, ...(from?.environment?.variables?.form ?? {}), content: from?.content });
  const one = (inner: string, from: any): unknown => {
    const src = inner.trim();
    const id = from?.content?.id as string | undefined;
    if (src === '$assignees') return id ? (input.assignees[id] ?? []) : [];
    if (src === '$countersignDone') {
      const mode = (id && input.meta.tasks[id]?.countersign) || 'all';
      const loopOutput = (from?.content?.loopOutput ?? []) as unknown[];
      return countersignDone(mode, loopOutput, Number(from?.content?.loopCardinality ?? loopOutput.length));
    }
    return evaluate(src, scopeOf(from));
  };
  return {
    isExpression: (t: unknown) => typeof t === 'string' && /^\$\{[\s\S]+\}$/.test(t),
    hasExpression: (t: unknown) => typeof t === 'string' && /\$\{[\s\S]+?\}/.test(t),
    resolveExpression(expr: unknown, from: any) {
      if (typeof expr !== 'string' || !expr.includes('${')) return expr;
      const whole = /^\$\{([\s\S]+)\}$/.exec(expr);
      if (whole && !whole[1]!.includes('${')) return one(whole[1]!, from);
      return expr.replace(EXPR, (_m, inner: string) => String(one(inner, from) ?? ''));
    },
  };
}

/** Timers go to the database: a due (or overdue) one is run in this step, a later one is returned as a row to store. */
class ExternalTimers {
  due: Array<() => void> = [];
  active = new Map<string, TimerSet>();
  /** What bpmn-engine clears when an execution completes. */
  get executing(): TimerSet[] {
    return [...this.active.values()];
  }
  register() {
    return { setTimeout: this.setTimeout, clearTimeout: this.clearTimeout };
  }
  setTimeout = (cb: (...a: unknown[]) => void, delay: number, ...args: unknown[]) => {
    const meta = (args[0] ?? {}) as { id?: string; executionId?: string };
    const ref = { executionId: String(meta.executionId ?? ''), elementId: String(meta.id ?? ''), dueAt: new Date(Date.now() + Math.max(0, delay)) };
    if (delay <= 0) this.due.push(() => cb(...args));
    else this.active.set(ref.executionId, ref);
    return ref;
  };
  clearTimeout = (ref: unknown) => {
    const r = ref as TimerSet | undefined;
    if (r?.executionId) this.active.delete(r.executionId);
  };
}

const scripts = {
  register() {},
  getScript() {},
};

/**
 * The model parsed once per XML (a deployed version is immutable): bpmn-engine's serialised moddle context,
 * handed to every step's Engine as `sourceContext`, so a step neither parses the XML with moddle again nor
 * deserialises the copy bpmn-engine puts into its state (stripped before the state is stored, see runStep).
 */
const contexts = new Map<string, Promise<unknown>>();
const MAX_CONTEXTS = 200;
function sourceContextOf(xml: string, processId: string): Promise<unknown> {
  let hit = contexts.get(xml);
  if (!hit) {
    const engine = new Engine({ name: processId, source: xml, moddleOptions: { app: appModdle }, scripts } as any);
    hit = engine.getDefinitions().then((defs: any[]) => defs[0]?.environment?.options?.source);
    hit.catch(() => contexts.delete(xml));
    if (contexts.size >= MAX_CONTEXTS) contexts.delete(contexts.keys().next().value!);
    contexts.set(xml, hit);
  }
  return hit;
}

/** The engine state without its copy of the model (the step's Engine gets the model from the cache). */
function withoutSource(state: any): any {
  if (!state || !Array.isArray(state.definitions)) return state;
  return { ...state, definitions: state.definitions.map(({ source: _s, ...d }: any) => d) };
}

/** One step of an instance on a new Engine: execute or recover+resume, then signal, run due timers, and report. */
export async function runStep(input: StepInput, signal?: { elementId: string; executionId: string; output: Record<string, unknown> }, fireTimers = false): Promise<StepResult> {
  const timers = new ExternalTimers();
  const sourceContext = await sourceContextOf(input.xml, input.meta.processId);
  if (!sourceContext) throw new BizError('流程定义无法加载');
  const engine = new Engine({ name: input.meta.processId, sourceContext, moddleOptions: { app: appModdle }, expressions: makeExpressions(input), scripts, timers } as any);
  const listener = new EventEmitter();
  const waits = new Map<string, Wait>();
  const ended = new Set<string>();
  const endedList: StepResult['ended'] = [];
  const flows: string[] = [];
  let failure: Error | undefined;
  listener.on('activity.wait', (api: any) => {
    waits.set(api.executionId, { elementId: api.id, executionId: api.executionId, assignee: api.content?.assignee, multi: api.content?.isMultiInstance || undefined });
  });
  const onEnd = (api: any) => {
    ended.add(api.executionId);
    if (!endedList.some((e) => e.executionId === api.executionId)) endedList.push({ elementId: api.id, executionId: api.executionId });
  };
  listener.on('activity.end', onEnd);
  listener.on('activity.leave', (api: any) => ended.add(api.executionId));
  listener.on('activity.discard', (api: any) => ended.add(api.executionId));
  listener.on('flow.take', (api: any) => flows.push(api.id));
  engine.on('error', (e: Error) => (failure = e));
  let execution: any;
  try {
    if (input.state) execution = await engine.recover(withoutSource(input.state)).resume({ listener });
    else execution = await engine.execute({ listener, variables: { form: input.variables } });
    const replay = input.replay ? Object.fromEntries(Object.entries(input.replay).map(([k, v]) => [k, [...v]])) : undefined;
    for (let round = 0; round < 100; round++) {
      let progressed = false;
      const runDue = timers.due.splice(0);
      if (fireTimers)
        for (const fire of runDue) {
          fire();
          progressed = true;
        }
      else timers.due.push(...runDue);
      if (replay) {
        for (const w of [...waits.values()]) {
          if (ended.has(w.executionId)) continue;
          const queue = replay[w.elementId];
          if (!queue?.length) continue;
          ended.add(w.executionId);
          execution.signal({ ...queue.shift(), id: w.elementId, executionId: w.executionId });
          progressed = true;
        }
      }
      if (!progressed) break;
    }
    if (signal) {
      ended.add(signal.executionId);
      execution.signal({ ...signal.output, id: signal.elementId, executionId: signal.executionId });
      for (let round = 0; round < 100 && fireTimers && timers.due.length; round++) for (const fire of timers.due.splice(0)) fire();
    }
  } catch (e) {
    failure = e as Error;
  }
  if (failure && process.env.WF_DEBUG) console.error(failure);
  if (failure) throw new BizError(`流程执行出错：${failure.message.split('\n')[0]!.slice(0, 200)}`);
  const state = withoutSource(await engine.getState());
  const parentOf = (id: string) => id.replace(/_\d+$/, '');
  const waiting = [...waits.values()].filter((w) => !ended.has(w.executionId) && !(w.multi && ended.has(parentOf(w.executionId))));
  const completed = engine.state === 'idle' && !waiting.length && !timers.active.size;
  return { state, waiting, timers: [...timers.active.values()], completed, ended: endedList, flows };
}
