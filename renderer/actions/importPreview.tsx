import { registerDialogAction } from '../dialogAction';

// Two-step import: files to `preview` (nothing written), its summary and rows, then the same files to `commit`.
registerDialogAction('importPreview', () => import('../ImportPreview'), (a) => !!a.preview && !!a.commit);
