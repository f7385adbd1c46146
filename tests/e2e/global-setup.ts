import { spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureTemplate, ROOT, TMP } from '../helpers/template-db.js';

/**
 * Starts the real product (built SPA + API) on 127.0.0.1:${PORT} over a copy of the seeded template
 * database, and stops it after the run.
 */
const PORT = process.env.E2E_PORT ?? '18080';

export default async function globalSetup() {
  if (process.env.E2E_BASE_URL) return;
  delete process.env.DATABASE_URL; // e2e runs on PGlite; the API suite covers the PostgreSQL server
  const template = await ensureTemplate();
  const dataDir = join(TMP, `e2e-${process.pid}`);
  const env: NodeJS.ProcessEnv = { ...process.env, PORT, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  cpSync(template, dataDir, { recursive: true });
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${PORT}/jeecg-boot/actuator/health`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('e2e server did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
  return async () => {
    // A server that died during the run has nothing left to stop (waiting for its exit would hang).
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
