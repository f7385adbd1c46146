import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { sql } from 'kysely';
import dayjs from 'dayjs';
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../context.js';
import { readCacheOf } from '../db/read-cache.js';
import { listenChannel, type ChannelListener } from '../db/listen.js';

/** What the /websocket/{userId} socket pushes (JeecgBoot contract §8). */
export interface NoticePayload {
  cmd: 'topic' | 'user' | 'email' | 'sign' | 'chat' | string;
  msgId?: string;
  msgTxt?: string;
  [k: string]: unknown;
}

type Envelope =
  | { kind: 'push'; to: string[] | 'ALL'; payload: NoticePayload }
  /** Sessions were revoked somewhere: every process re-checks its open sockets now. */
  | { kind: 'recheck' }
  /** Tables written by process `from`: the others drop their cached reads of them (read-cache.ts). */
  | { kind: 'written'; from: string; tables: string[] };

interface Client {
  ws: WebSocket;
  userId: string;
  sessionId: string;
}

const CHANNEL = 'dd_notice';
const RECHECK_MS = 5_000;
/** Writes are announced to other processes at most this often (one NOTIFY per batch of tables). */
const WRITTEN_BATCH_MS = 20;
const PROCESS_ID = randomUUID();

/** One hub per running server (keyed by its config object, which survives `{...ctx}` copies). */
class Hub {
  readonly clients = new Set<Client>();
  private pg?: ChannelListener;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private stopForwarding?: () => void;
  private writtenBatch?: Set<string>;

  constructor(private readonly ctx: ServerContext) {}

  async start() {
    if (this.ctx.dbKind === 'pg' && this.ctx.cfg.databaseUrl) {
      this.pg = await listenChannel({
        databaseUrl: this.ctx.cfg.databaseUrl,
        channel: CHANNEL,
        retryMs: 5_000,
        onMessage: (payload) => {
          try {
            this.deliver(JSON.parse(payload) as Envelope);
          } catch {
            /* a malformed notification is ignored */
          }
        },
      });
      this.stopForwarding = readCacheOf(this.ctx.db)?.onWrite((tables) => this.forwardWrites(tables));
    }
    this.timer = setInterval(() => void this.recheck().catch(() => undefined), RECHECK_MS);
    this.timer.unref();
  }

  /** Collects written tables for WRITTEN_BATCH_MS, then tells the other processes in one notification. */
  private forwardWrites(tables: string[]) {
    if (this.writtenBatch) {
      for (const t of tables) this.writtenBatch.add(t);
      return;
    }
    this.writtenBatch = new Set(tables);
    setTimeout(() => {
      const batch = [...(this.writtenBatch ?? [])];
      this.writtenBatch = undefined;
      if (!this.closed && this.pg?.listening) void this.publish({ kind: 'written', from: PROCESS_ID, tables: batch }).catch(() => undefined);
    }, WRITTEN_BATCH_MS).unref();
  }

  async publish(env: Envelope) {
    // With a PostgreSQL server every process (this one included) receives it through LISTEN.
    if (this.ctx.dbKind === 'pg' && this.pg?.listening) {
      await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(env)})`.execute(this.ctx.db);
      return;
    }
    this.deliver(env);
  }

  deliver(env: Envelope) {
    if (env.kind === 'recheck') {
      void this.recheck().catch(() => undefined);
      return;
    }
    if (env.kind === 'written') {
      if (env.from !== PROCESS_ID && Array.isArray(env.tables)) readCacheOf(this.ctx.db)?.written(env.tables.map(String), true);
      return;
    }
    const text = JSON.stringify(env.payload);
    const to = env.to === 'ALL' ? null : new Set(env.to);
    for (const c of this.clients) if (!to || to.has(c.userId)) if (c.ws.readyState === c.ws.OPEN) c.ws.send(text);
  }

  /** Closes sockets whose session was revoked, expired or went idle. */
  async recheck() {
    if (!this.ctx.ready || !this.clients.size) return;
    const ids = [...new Set([...this.clients].map((c) => c.sessionId))];
    const rows = await this.ctx.db
      .selectFrom('sys_session')
      .select(['id', 'revoked_at', 'expires_at', 'last_seen_at'])
      .where('id', 'in', ids)
      .execute();
    const t = dayjs();
    const idle = this.ctx.cfg.session.idleMinutes;
    const alive = new Set(
      rows
        .filter((r) => !r.revoked_at && t.isBefore(dayjs(r.expires_at)) && t.diff(dayjs(r.last_seen_at), 'minute', true) <= idle)
        .map((r) => r.id as string),
    );
    for (const c of this.clients)
      if (!alive.has(c.sessionId)) {
        this.clients.delete(c);
        c.ws.close(4001, 'session ended');
      }
  }

  async stop() {
    this.closed = true;
    this.stopForwarding?.();
    clearInterval(this.timer);
    for (const c of this.clients) c.ws.terminate();
    this.clients.clear();
    await this.pg?.close();
  }
}

const hubs = new WeakMap<object, Hub>();

export function hubOf(ctx: ServerContext): Hub {
  let h = hubs.get(ctx.cfg);
  if (!h) {
    h = new Hub(ctx);
    hubs.set(ctx.cfg, h);
  }
  return h;
}

/**
 * Pushes a message to the open /websocket sockets of some users (or everyone), in every server
 * process. Fire-and-forget for callers: delivery problems are logged by the caller at most.
 */
export async function notifyUsers(ctx: ServerContext, userIds: string[] | 'ALL', payload: NoticePayload): Promise<void> {
  if (Array.isArray(userIds) && !userIds.length) return;
  await hubOf(ctx).publish({ kind: 'push', to: userIds, payload });
}

/** Call after revoking sessions: open sockets of revoked sessions are closed at once (else within 5 s). */
export async function sessionsRevoked(ctx: ServerContext): Promise<void> {
  await hubOf(ctx).publish({ kind: 'recheck' });
}

/** Starts the hub with the server and stops it on close. */
export async function registerNotify(api: FastifyInstance, ctx: ServerContext) {
  const hub = hubOf(ctx);
  api.addHook('onReady', async () => hub.start());
  api.addHook('onClose', async () => {
    await hub.stop();
    hubs.delete(ctx.cfg);
  });
}
