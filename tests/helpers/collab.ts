import WebSocket from 'ws';
import * as Y from 'yjs';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';

/**
 * A real Yjs client of the online documents' socket from Node (tests, cluster tests, bench): the
 * session token goes in the websocket subprotocol (as the browser sends it) and in the sync protocol.
 */
export interface DocClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  /** Resolves once the first sync is done; rejects when the server refuses the document. */
  ready: Promise<void>;
  /** Resolves once every local change was acknowledged by the server (persisted). */
  saved(ms?: number): Promise<void>;
  close(): void;
  failed: string | null;
  closed: boolean;
}

export function connectDoc(wsBase: string, token: string, docId: string, opts: { name?: string } = {}): DocClient {
  const doc = new Y.Doc();
  class TokenSocket extends WebSocket {
    constructor(url: string) {
      super(url, [token]);
    }
  }
  const socket = new HocuspocusProviderWebsocket({ url: `${wsBase}/docs/collab`, WebSocketPolyfill: TokenSocket, delay: 100, minDelay: 100, maxDelay: 500, maxAttempts: 0, timeout: 10_000 });
  const client: DocClient = {
    doc,
    socket,
    provider: undefined as unknown as HocuspocusProvider,
    failed: null,
    closed: false,
    ready: Promise.resolve(),
    async saved(ms = 5000) {
      const end = Date.now() + ms;
      while (client.provider.hasUnsyncedChanges) {
        if (Date.now() > end) throw new Error('changes not acknowledged');
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close() {
      client.provider.destroy();
      socket.destroy();
    },
  };
  client.ready = new Promise<void>((resolve, reject) => {
    client.provider = new HocuspocusProvider({
      websocketProvider: socket,
      name: docId,
      token,
      document: doc,
      onSynced: () => resolve(),
      onAuthenticationFailed: ({ reason }) => {
        client.failed = reason || 'forbidden';
        reject(new Error(`refused: ${client.failed}`));
      },
      onClose: () => {
        client.closed = true;
      },
    });
    client.provider.attach();
    if (opts.name) client.provider.setAwarenessField('user', { name: opts.name, color: '#1677ff' });
  });
  client.ready.catch(() => undefined);
  return client;
}

export const until = async (pred: () => boolean | Promise<boolean>, ms = 5000, what = 'condition') => {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
