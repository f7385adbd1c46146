import { registerJobHandler } from '../sys/jobs/handlers.js';
import { storageOf } from '../storage/index.js';
import { backupTo, pruneBackups } from './backup.js';

/** 每天备份: one archive into `backup.dir`, keeping the newest N (the job's parameter, else `backup.keep`). */
registerJobHandler('nightlyBackup', {
  title: '备份数据库和文件（参数：保留份数）',
  async run(ctx, parameter) {
    const keep = Math.min(Math.max(Number(parameter) || ctx.cfg.backup.keep, 1), 365);
    const { file, manifest } = await backupTo({ cfg: ctx.cfg, db: ctx.db, kind: ctx.dbKind, storage: storageOf(ctx) });
    const removed = await pruneBackups(ctx.cfg.backup.dir, keep);
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    return `已备份 ${manifest.tables.length} 张表 ${rows} 行、${manifest.files.length} 个文件到 ${file}；清理旧备份 ${removed.length} 份`;
  },
});

/** Uploads cut short by a crash leave unpublished temp files / rows / objects: remove those older than a day. */
registerJobHandler('sweepUnpublishedUploads', {
  title: '清理中断上传留下的临时文件',
  async run(ctx) {
    const n = await storageOf(ctx).sweep(24 * 3600_000);
    return `清理临时上传 ${n} 个`;
  },
});
