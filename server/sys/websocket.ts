import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { Forbidden } from '../http/envelope.js';
import { hubOf } from './notify.js';

const HEARTBEAT_REPLY = JSON.stringify({ cmd: 'heartcheck', msgTxt: '心跳响应' });

/**
 * The notice socket `/websocket/{userId}`. The token travels in Sec-WebSocket-Protocol (the guard
 * reads it there; ws echoes the first offered protocol back). The handshake is refused without a
 * valid session or for another user's id; sockets of a revoked session are closed by the hub.
 */
export async function registerWebsocket(api: FastifyInstance, ctx: ServerContext) {
  // An upgrade refused by the guard (401/510) ends before @fastify/websocket's own onRequest hook ran,
  // so its cleanup does not know the socket: close it here, or it stays open and blocks shutdown.
  api.addHook('onResponse', async (req) => {
    if (String(req.headers.upgrade ?? '').toLowerCase() === 'websocket' && (req as { ws?: boolean }).ws !== true) req.raw.socket?.destroy();
  });
  api.get<{ Params: { userId: string } }>(
    '/websocket/:userId',
    {
      websocket: true,
      config: { auth: 'user' },
      preValidation: async (req) => {
        if (req.user?.id !== req.params.userId) throw Forbidden('不能订阅其他用户的消息');
      },
    },
    (socket, req) => {
      const hub = hubOf(ctx);
      const client = { ws: socket, userId: req.user!.id, sessionId: req.user!.sessionId };
      hub.clients.add(client);
      // Any text from the client is a heartbeat ("HeartBeat" from Vue2, "ping" from Vue3).
      socket.on('message', () => {
        if (socket.readyState === socket.OPEN) socket.send(HEARTBEAT_REPLY);
      });
      socket.on('close', () => hub.clients.delete(client));
      socket.on('error', () => hub.clients.delete(client));
    },
  );
}
