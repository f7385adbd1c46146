import { Alert } from 'antd';
import { getWidget } from '@widgets/registry';
import { registerAction } from '../registry';

// A registered widget in a drawer with `{ record, onClose, onDone, ...widgetProps }`; closing refreshes the page (the widget may have changed rows).
registerAction('widget', (a, ctx) => {
  if (!a.widget) return;
  ctx.openDialog({
    kind: 'drawer',
    title: a.title ?? a.label,
    width: a.width ?? 650,
    render: (close) => {
      const W = getWidget(a.widget!);
      return W ? <W record={ctx.record} onClose={() => close(true)} onDone={() => ctx.reload()} {...a.widgetProps} /> : <Alert type="error" message={`未注册的组件：${a.widget}`} />;
    },
  });
});
