import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { ServerContext } from '../context.js';
import { Forbidden } from '../http/envelope.js';
import { tokenOf } from '../http/guard.js';
import { resolveSession } from '../auth/session.js';

/**
 * The editable-table live-update socket `/vxeSocket/{userId}/{pageId}` (SPEC §7). Messages are JSON
 * `{type, data}`: `heart_beat` is answered in kind; `common_send_date` with `data {socketKey, args}`
 * is relayed to every other socket open on the same page id in the same tenant (the client applies
 * `args = ['update_vxe_table', row]`). Anything else, or invalid JSON, is ignored.
 * Every frame re-checks the session (a socket closes once its session ends). Relaying is within
 * this process; with several API processes only clients of the same one see each other.
 */
interface Peer {
  ws: WebSocket;
  userId: string;
  pageId: string;
  tenantId: number;
}

const peers = new WeakMap<object, Set<Peer>>();
const PAGE_ID = /^[\w-]{1,64}$/;

export async function registerVxeSocket(api: FastifyInstance, ctx: ServerContext) {
  let all = peers.get(ctx.cfg);
  if (!all) peers.set(ctx.cfg, (all = new Set()));
  const set = all;
  api.get<{ Params: { userId: string; pageId: string } }>(
    '/vxeSocket/:userId/:pageId',
    {
      websocket: true,
      config: { auth: 'user' },
      preValidation: async (req) => {
        if (req.user?.id !== req.params.userId) throw Forbidden('不能使用其他用户的连接');
        if (!PAGE_ID.test(req.params.pageId)) throw Forbidden('页面标识不正确');
      },
    },
    (socket, req) => {
      const me: Peer = { ws: socket, userId: req.user!.id, pageId: req.params.pageId, tenantId: req.user!.tenantId };
      set.add(me);
      const token = tokenOf(req);
      socket.on('message', async (raw) => {
        // A socket outlives nothing: once its session is gone (logout, expiry, revocation) it is closed.
        if (!(await resolveSession(ctx, token).catch(() => null))) return void socket.close(4001, 'session ended');
        let msg: { type?: unknown; data?: unknown };
        try {
          msg = JSON.parse(String(raw)) as typeof msg;
        } catch {
          return;
        }
        if (!msg || typeof msg !== 'object') return;
        if (msg.type === 'heart_beat') {
          socket.send(JSON.stringify({ type: 'heart_beat', data: '-' }));
          return;
        }
        if (msg.type !== 'common_send_date') return;
        const data = msg.data as { socketKey?: unknown; args?: unknown } | undefined;
        if (!data || typeof data.socketKey !== 'string' || !Array.isArray(data.args)) return;
        const out = JSON.stringify({ type: 'common_send_date', data: { socketKey: data.socketKey, args: data.args } });
        for (const p of set)
          if (p !== me && p.pageId === me.pageId && p.tenantId === me.tenantId && p.ws.readyState === p.ws.OPEN) p.ws.send(out);
      });
      const drop = () => set.delete(me);
      socket.on('close', drop);
      socket.on('error', drop);
    },
  );
}
