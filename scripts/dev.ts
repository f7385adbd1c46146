/**
 * `npm run dev`: the API under `tsx watch` on API_PORT (default 8081) and the Vite dev server (PORT,
 * default 5173) proxying API_BASE to it. Both reload on change; Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const apiPort = process.env.API_PORT ?? '8081';
const webPort = process.env.PORT ?? '5173';
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

const children: ChildProcess[] = [];
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const c = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' });
  c.on('exit', (code) => {
    if (!stopping) {
      console.error(`${cmd} ${args.join(' ')} exited (${code}); stopping`);
      stop(code ?? 1);
    }
  });
  children.push(c);
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500);
}
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());

run(bin('tsx'), ['watch', '--clear-screen=false', '--include', 'schemas/entities/**', 'server/main.ts'], { PORT: apiPort, HOST: '127.0.0.1' });
run(bin('vite'), ['--port', webPort, '--strictPort'], { API_PORT: apiPort });
console.log(`dev: API on http://127.0.0.1:${apiPort}, app on http://localhost:${webPort}`);
