/**
 * `npm run restore -- <archive.tar.gz>`: restores a backup (server/ops/backup.ts) into the configured,
 * EMPTY database and file storage (a new PostgreSQL database, or a new DATA_DIR for PGlite), then runs
 * the server's preparation — entity tables and migrations — so an older archive comes up migrated.
 * A non-empty target is refused (exit code 2) and left untouched.
 */
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/index.js';
import { createStorage } from '../server/storage/index.js';
import { RestoreRefused, restoreFrom } from '../server/ops/backup.js';
import { loadEntities } from '../server/crud/entities.js';
import { prepareDatabase } from '../server/start.js';
import type { ServerContext } from '../server/context.js';

const file = process.argv.slice(2).find((a) => !a.startsWith('-'));
if (!file) {
  console.error('用法：npm run restore -- <备份文件.tar.gz>');
  process.exit(1);
}
const cfg = loadConfig();
const database = await openDatabase(cfg);
const storage = createStorage(cfg, database.db);
let code = 0;
try {
  const manifest = await restoreFrom({ file, db: database.db, storage, workDir: cfg.backup.dir });
  const ctx: ServerContext = { cfg, db: database.db, dbKind: database.kind, entities: loadEntities(), ready: false, draining: false };
  await prepareDatabase(ctx);
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  console.log(`恢复完成：${manifest.tables.length} 张表 ${rows} 行，${manifest.files.length} 个文件（备份于 ${manifest.createdAt}，程序版本 ${manifest.product}，数据库结构版本 ${manifest.migrationVersion}，已迁移到当前版本）`);
} catch (err) {
  if (err instanceof RestoreRefused) {
    console.error(`恢复被拒绝：${err.message}`);
    code = 2;
  } else throw err;
} finally {
  await storage.close();
  await database.close();
}
process.exit(code);
