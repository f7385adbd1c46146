/**
 * A dedicated PostgreSQL connection that LISTENs on one channel and comes back by itself: when the
 * connection drops (a server restart, a network cut) it reconnects every `retryMs` until it listens
 * again, then calls `onConnect` so the caller can re-read what it may have missed. Used by the notice
 * hub (server/sys/notify.ts) and the document relay (server/docs/collab.ts).
 */
export interface ChannelListener {
  /** True while the LISTEN connection is up (NOTIFY from this process will come back to it). */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  databaseUrl: string;
  channel: string;
  onMessage(payload: string): void;
  /** After every (re)connection, once LISTEN holds. */
  onConnect?(): void;
  retryMs: number;
}

export async function listenChannel(o: ListenOptions): Promise<ChannelListener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(o.channel)) throw new Error(`bad channel name: ${o.channel}`);
  const pg = (await import('pg')).default;
  let client: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect().catch(retry);
    }, o.retryMs);
    timer.unref();
  };

  async function connect() {
    const c = new pg.Client({ connectionString: o.databaseUrl });
    c.on('error', () => undefined);
    c.on('end', () => {
      if (client === c) client = undefined;
      retry();
    });
    c.on('notification', (n) => {
      if (n.channel === o.channel && n.payload) o.onMessage(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${o.channel}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (closed) return void (await c.end().catch(() => undefined));
    client = c;
    o.onConnect?.();
  }

  await connect().catch(retry);
  return {
    get listening() {
      return client !== undefined;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
