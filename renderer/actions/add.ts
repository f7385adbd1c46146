import { fillValues, registerAction } from '../registry';

// 新增: the page's form, with `values` as initial values (`{field}` filled from the row, e.g. a row's 添加下级) and the page's bound parameters.
registerAction('add', (a, ctx) => ctx.openForm('add', { ...ctx.params, ...(a.values ? fillValues(a.values, ctx.record) : {}) }));
