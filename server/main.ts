import { loadConfig } from './config.js';
import { startServer } from './start.js';

const cfg = loadConfig();
const running = await startServer(cfg);
const log = running.app.log;
const shown = cfg.host === '0.0.0.0' || cfg.host === '::' ? 'localhost' : cfg.host;

running.prepared.then(
  () => {
    const where = cfg.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${cfg.dataDir}`;
    log.info(`ready on ${where}`);
    console.log(`\n  督导听课 is running: http://${shown}:${cfg.port}/  (demo accounts in README.md)\n`);
  },
  (err) => {
    log.error({ err }, 'start-up failed');
    process.exit(1);
  },
);

let stopping = false;
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    log.info(`${sig}: draining`);
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
