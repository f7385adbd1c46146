import { registerAction } from '../registry';

registerAction('batchDelete', (_a, ctx) => {
  if (!ctx.selected.length) {
    ctx.message.warning('请选择一条记录！');
    return;
  }
  ctx.modal.confirm({ title: '确认删除', content: '是否删除选中数据?', onOk: () => ctx.remove(ctx.selected, true) });
});
