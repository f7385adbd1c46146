/**
 * `npm run files:migrate`: copies the files of the local upload folder (`uploadDir`, the embedded
 * default) into the configured file storage (`storage.kind` db or s3; with DATABASE_URL the default is
 * db), and marks their `sys_file` rows with the new storage. Files already there (same size) are
 * skipped, so it can be run again after an interruption. The local folder is left as it was: remove it
 * once the server runs on the new storage.
 */
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/index.js';
import { createStorage, storageKind } from '../server/storage/index.js';
import { LocalStorage } from '../server/storage/local.js';

const cfg = loadConfig();
const kind = storageKind(cfg);
if (kind === 'local') {
  console.error('当前配置的文件存储就是本地目录（storage.kind = local）：请先配置 db 或 s3 存储（或设置 DATABASE_URL）再迁移');
  process.exit(1);
}
const database = await openDatabase(cfg);
const target = createStorage(cfg, database.db, kind);
const source = new LocalStorage(cfg.uploadDir);
let copied = 0;
let skipped = 0;
let bytes = 0;
try {
  for await (const o of source.list()) {
    const there = await target.stat(o.key);
    if (there && there.size === o.size) {
      skipped++;
      continue;
    }
    await target.put(o.key, await source.get(o.key));
    copied++;
    bytes += o.size;
  }
  const r = await database.db.updateTable('sys_file').set({ store_type: kind }).where('store_type', '=', 'local').executeTakeFirst();
  console.log(`迁移完成：复制 ${copied} 个文件（${(bytes / 1024 / 1024).toFixed(1)} MB），跳过已存在 ${skipped} 个；更新文件记录 ${Number(r.numUpdatedRows)} 条。`);
  console.log(`原目录 ${cfg.uploadDir} 未改动，确认服务正常后可删除。`);
} finally {
  await target.close();
  await database.close();
}
