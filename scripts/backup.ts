/**
 * `npm run backup [-- --dir <folder>] [--keep <n>]`: one archive of the database and the stored files
 * (server/ops/backup.ts), configured like the server (config.json, DATABASE_URL, DATA_DIR…).
 * PostgreSQL: run it any time (one consistent snapshot). Embedded PGlite: stop the server first (one
 * process at a time may open its data directory) — or let the nightly job back up inside the server.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/index.js';
import { createStorage } from '../server/storage/index.js';
import { backupTo, pruneBackups } from '../server/ops/backup.js';

const { values } = parseArgs({ options: { dir: { type: 'string' }, keep: { type: 'string' } } });
const cfg = loadConfig();
const database = await openDatabase(cfg);
const storage = createStorage(cfg, database.db);
try {
  const dir = values.dir ?? cfg.backup.dir;
  const { file, manifest } = await backupTo({ cfg, db: database.db, kind: database.kind, storage, dir });
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  console.log(`备份完成：${file}`);
  console.log(`  ${manifest.tables.length} 张表 ${rows} 行，${manifest.files.length} 个文件；数据库结构版本 ${manifest.migrationVersion}，程序版本 ${manifest.product}`);
  if (values.keep) console.log(`  清理旧备份 ${(await pruneBackups(dir, Number(values.keep))).length} 份`);
} finally {
  await storage.close();
  await database.close();
}
