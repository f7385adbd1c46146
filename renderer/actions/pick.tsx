import { registerDialogAction } from '../dialogAction';

// Pick-then-post (添加已有…): rows picked from a list go to `url` as `{ids}` with the parent's fields (`body`).
registerDialogAction('pick', () => import('../PickDialog'), (a) => !!a.url);
