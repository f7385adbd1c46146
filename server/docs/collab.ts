import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import * as decoding from 'lib0/decoding';
import { Hocuspocus, type Connection, type Document } from '@hocuspocus/server';
import { prosemirrorJSONToYXmlFragment, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import { resolveSession } from '../auth/session.js';
import { DOC_FIELD } from '../../shared/doc-schema.js';
import { docImages, docPlainText, type PmNode } from '../../shared/doc-text.js';
import { newId, now } from '../util.js';
import { levelOf, loadDoc, writable } from './access.js';
import { docSchema } from './tables.js';
import { listenChannel, type ChannelListener } from '../db/listen.js';

/**
 * Real-time collaboration (issue 29; docs/architecture.md "Online documents").
 *
 * Hocuspocus 3 handles the Yjs sync and awareness protocol on `/docs/collab`. Persistence is ours:
 * - every client update is INSERTed into `collab_update` in `beforeHandleMessage`, which Hocuspocus awaits
 *   before applying the message and acknowledging it (SyncStatus) — so an update a client was told was
 *   saved is in the database, and a kill loses nothing acknowledged;
 * - server-side edits (restore, import) are appended in `onChange`;
 * - a document loads as merge(base state, rows); `onStoreDocument` (debounced) compacts rows older than
 *   30 s into the base, refreshes the search text and takes automatic versions;
 * - several API processes on one PostgreSQL relay through the same table: `pg_notify('collab', {d,s,i})`
 *   carries only the key; a dedicated LISTEN connection fetches the rows and applies them (origin RELAY).
 */
const INSTANCE = randomUUID();
const CHANNEL = 'collab';
const RELAY = 'docs-relay';
const COMPACT_AFTER_MS = 30_000;
const AUTO_VERSION_MS = 10 * 60_000;
const RECHECK_MS = 10_000;

interface ConnContext {
  user: SessionUser;
  token: string;
  req: FastifyRequest;
}

type Raw = Uint8Array | Buffer;
const bytes = (b: Raw) => (b instanceof Uint8Array ? b : new Uint8Array(b));

export class Collab {
  readonly hp: Hocuspocus;
  private lastSeen = new Map<string, number>();
  private applied = new Map<string, Set<number>>();
  private listener?: ChannelListener;
  private closed = false;
  private timer?: NodeJS.Timeout;
  private lastAuto = new Map<string, number>();

  constructor(private readonly ctx: ServerContext) {
    this.hp = new Hocuspocus({
      quiet: true,
      debounce: 2000,
      maxDebounce: 10_000,
      onAuthenticate: async ({ token, documentName, context, connectionConfig }) => {
        const c = context as ConnContext;
        // The handshake was authenticated by the route guard (subprotocol token); the token of the sync
        // protocol must be the same live session.
        const s = await resolveSession(this.ctx, token).catch(() => null);
        if (!s || !c.user || s.id !== c.user.id) throw new Error('unauthenticated');
        const doc = await loadDoc(this.ctx, documentName).catch(() => null);
        if (!doc) throw new Error('forbidden');
        const level = await levelOf(this.ctx, c.user, doc, c.req);
        if (!level || (doc.deleted_at && level !== 'owner')) throw new Error('forbidden');
        connectionConfig.readOnly = !writable(doc, level, c.user);
        await this.touchRecent(c.user.id, doc.id);
        return { ...c, level };
      },
      onLoadDocument: async ({ documentName, document }) => {
        const u = await this.loadState(documentName);
        if (u) Y.applyUpdate(document, u, RELAY);
        return document;
      },
      beforeHandleMessage: async ({ connection, update, documentName }) => {
        const u = syncUpdateOf(update);
        if (!u || connection.readOnly) return;
        await this.append(documentName, u);
      },
      onChange: async ({ documentName, update, transactionOrigin }) => {
        if (transactionOrigin === RELAY || isConnection(transactionOrigin)) return;
        await this.append(documentName, update);
      },
      onStoreDocument: async ({ documentName, document, context, clientsCount }) => {
        const who = (context as Partial<ConnContext>)?.user;
        await this.store(documentName, document, who?.realname || who?.username || null, clientsCount === 0);
      },
    });
  }

  async start() {
    if (this.ctx.dbKind === 'pg' && this.ctx.cfg.databaseUrl) await this.listen();
    this.timer = setInterval(() => void this.recheck().catch(() => undefined), RECHECK_MS);
    this.timer.unref();
  }

  async stop() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.hp.closeConnections();
    await this.listener?.close();
  }

  handle(socket: import('ws').WebSocket, req: FastifyRequest, token: string) {
    const c: ConnContext = { user: req.user!, token, req };
    this.hp.handleConnection(socket, req.raw, c);
  }

  // ---- persistence ----

  /** merge(base, rows) of a document, or null when it has neither. */
  async loadState(doc: string): Promise<Uint8Array | null> {
    const base = await this.ctx.db.selectFrom('doc_document').select('state').where('id', '=', doc).executeTakeFirst();
    const rows = await this.ctx.db.selectFrom('collab_update').select(['seq', 'update']).where('doc', '=', doc).orderBy('seq').execute();
    const parts: Uint8Array[] = [];
    if (base?.state) parts.push(bytes(base.state as Raw));
    for (const r of rows) parts.push(bytes(r.update as Raw));
    const max = rows.length ? Number(rows[rows.length - 1]!.seq) : 0;
    this.lastSeen.set(doc, Math.max(this.lastSeen.get(doc) ?? 0, max));
    if (!parts.length) return null;
    return parts.length === 1 ? parts[0]! : Y.mergeUpdates(parts);
  }

  /** The current content: the live document of this process, else the stored state. */
  async currentDoc(doc: string): Promise<Y.Doc> {
    const live = this.hp.documents.get(doc);
    const d = new Y.Doc();
    if (live) Y.applyUpdate(d, Y.encodeStateAsUpdate(live));
    else {
      const u = await this.loadState(doc);
      if (u) Y.applyUpdate(d, u);
    }
    return d;
  }

  async currentJson(doc: string): Promise<PmNode> {
    const d = await this.currentDoc(doc);
    const json = yXmlFragmentToProsemirrorJSON(d.getXmlFragment(DOC_FIELD)) as PmNode;
    d.destroy();
    return json;
  }

  private async append(doc: string, update: Uint8Array) {
    const row = await this.ctx.db
      .insertInto('collab_update')
      .values({ doc, instance_id: INSTANCE, update: Buffer.from(update), created_at: sql`localtimestamp` })
      .returning('seq')
      .executeTakeFirstOrThrow();
    if (this.listener?.listening) await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ d: doc, s: Number(row.seq), i: INSTANCE })})`.execute(this.ctx.db);
  }

  /** Replaces the whole content by ProseMirror JSON as one server edit (restore a version, import). */
  async replaceContent(doc: string, json: PmNode) {
    const conn = await this.hp.openDirectConnection(doc, { server: true });
    try {
      await conn.transact((d) => {
        const f = d.getXmlFragment(DOC_FIELD);
        f.delete(0, f.length);
        prosemirrorJSONToYXmlFragment(docSchema(), json, f);
      });
    } finally {
      await conn.disconnect();
    }
  }

  private async store(doc: string, document: Document, who: string | null, last: boolean) {
    const json = yXmlFragmentToProsemirrorJSON(document.getXmlFragment(DOC_FIELD)) as PmNode;
    const text = docPlainText(json);
    await this.ctx.db
      .updateTable('doc_document')
      .set({ plain_text: text, images: docImages(json).join(',').slice(0, 100_000), update_time: now(), ...(who ? { update_by: who } : {}) })
      .where('id', '=', doc)
      .execute();
    await this.compact(doc);
    // Automatic versions: on the last editor's leaving, and at most every 10 minutes while edits go on.
    const due = last || Date.now() - (this.lastAuto.get(doc) ?? 0) > AUTO_VERSION_MS;
    if (!due) return;
    const prev = await this.ctx.db.selectFrom('doc_version').select('plain_text').where('doc_id', '=', doc).orderBy('create_time', 'desc').limit(1).executeTakeFirst();
    if (prev && prev.plain_text === text) return;
    if (!prev && !last) this.lastAuto.set(doc, Date.now());
    this.lastAuto.set(doc, Date.now());
    await this.ctx.db
      .insertInto('doc_version')
      .values({ id: newId(), doc_id: doc, name: '自动保存', kind: 'auto', state: Buffer.from(Y.encodeStateAsUpdate(document)), plain_text: text, create_by_name: who, create_time: now() })
      .execute();
  }

  /** Folds rows older than 30 s into the base state (one transaction; the document row lock orders compactions). */
  async compact(doc: string) {
    await this.ctx.db.transaction().execute(async (trx) => {
      const base = await sql<{ state: Raw | null }>`select state from doc_document where id = ${doc} for update`.execute(trx);
      if (!base.rows.length) return;
      const rows = await trx
        .selectFrom('collab_update')
        .select(['seq', 'update'])
        .where('doc', '=', doc)
        .where('created_at', '<', sql<string>`localtimestamp - make_interval(secs => ${COMPACT_AFTER_MS / 1000})`)
        .orderBy('seq')
        .execute();
      if (rows.length < 2) return;
      const parts = [...(base.rows[0]!.state ? [bytes(base.rows[0]!.state)] : []), ...rows.map((r) => bytes(r.update as Raw))];
      await trx.updateTable('doc_document').set({ state: Buffer.from(Y.mergeUpdates(parts)) }).where('id', '=', doc).execute();
      await trx.deleteFrom('collab_update').where('doc', '=', doc).where('seq', 'in', rows.map((r) => String(r.seq))).execute();
    });
  }

  private async touchRecent(userId: string, doc: string) {
    await sql`insert into doc_recent (user_id, doc_id, opened_at) values (${userId}, ${doc}, localtimestamp)
      on conflict (user_id, doc_id) do update set opened_at = excluded.opened_at`.execute(this.ctx.db);
  }

  // ---- relay between processes ----

  private async listen() {
    this.listener = await listenChannel({
      databaseUrl: this.ctx.cfg.databaseUrl!,
      channel: CHANNEL,
      retryMs: 2_000,
      onMessage: (payload) => {
        try {
          const m = JSON.parse(payload) as { d?: string; s?: number; i?: string; a?: string };
          if (m.i === INSTANCE) return;
          if (typeof m.a === 'string') void this.recheck(m.a).catch(() => undefined);
          else if (typeof m.d === 'string') void this.catchUp(m.d).catch(() => undefined);
        } catch {
          /* ignored */
        }
      },
      // Anything missed while not listening: re-read every open document (updates are idempotent).
      onConnect: () => {
        for (const name of this.hp.documents.keys()) void this.catchUp(name, true).catch(() => undefined);
      },
    });
  }

  /** Applies other processes' rows of an open document (rows of a slightly lower seq may commit late: look back 200). */
  private async catchUp(doc: string, full = false) {
    const live = this.hp.documents.get(doc);
    if (!live) return;
    if (full) {
      const u = await this.loadState(doc);
      if (u) Y.applyUpdate(live, u, RELAY);
      return;
    }
    const from = Math.max(0, (this.lastSeen.get(doc) ?? 0) - 200);
    const rows = await this.ctx.db
      .selectFrom('collab_update')
      .select(['seq', 'update'])
      .where('doc', '=', doc)
      .where('seq', '>', String(from))
      .where('instance_id', '<>', INSTANCE)
      .orderBy('seq')
      .execute();
    let seen = this.applied.get(doc);
    if (!seen) this.applied.set(doc, (seen = new Set()));
    for (const r of rows) {
      const s = Number(r.seq);
      if (seen.has(s)) continue;
      seen.add(s);
      Y.applyUpdate(live, bytes(r.update as Raw), RELAY);
      if (s > (this.lastSeen.get(doc) ?? 0)) this.lastSeen.set(doc, s);
    }
    if (seen.size > 2000) for (const s of [...seen].slice(0, 1000)) seen.delete(s);
  }

  // ---- access changes on open connections ----

  /** A share, finalisation or trash changed: every process re-checks the document's connections. */
  async accessChanged(doc: string) {
    // This process at once (the answer to the change follows it), the others through NOTIFY.
    await this.recheck(doc);
    if (this.listener?.listening) await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ a: doc, i: INSTANCE })})`.execute(this.ctx.db);
  }

  /** Closes connections whose session ended or whose access is gone; a lost write access makes them read-only. */
  async recheck(only?: string) {
    if (!this.ctx.ready) return;
    for (const [name, document] of this.hp.documents) {
      if (only && name !== only) continue;
      const conns = document.getConnections();
      if (!conns.length) continue;
      const doc = await loadDoc(this.ctx, name).catch(() => null);
      for (const conn of conns) {
        const c = conn.context as ConnContext;
        const s = c?.token ? await resolveSession(this.ctx, c.token).catch(() => null) : null;
        const level = s && doc ? await levelOf(this.ctx, c.user, doc, c.req).catch(() => null) : null;
        if (!level || !doc || (doc.deleted_at && level !== 'owner')) {
          conn.close({ code: 4403, reason: 'forbidden' } as never);
          continue;
        }
        conn.readOnly = !writable(doc, level, c.user);
      }
    }
  }
}

/** The Yjs update carried by a Hocuspocus sync message (SyncStep2 or Update), else null. */
export function syncUpdateOf(message: Uint8Array): Uint8Array | null {
  try {
    const dec = decoding.createDecoder(message);
    decoding.readVarString(dec); // document name
    const type = decoding.readVarUint(dec);
    if (type !== 0 && type !== 4) return null; // Sync, SyncReply
    const step = decoding.readVarUint(dec);
    if (step !== 1 && step !== 2) return null; // SyncStep2, Update (SyncStep1 carries a state vector)
    return decoding.readVarUint8Array(dec);
  } catch {
    return null;
  }
}

function isConnection(o: unknown): o is Connection {
  return !!o && typeof o === 'object' && 'socketId' in o && 'webSocket' in o;
}

const instances = new WeakMap<object, Collab>();
export const collabOf = (ctx: ServerContext) => instances.get(ctx.cfg)!;
export function setCollab(ctx: ServerContext, c: Collab) {
  instances.set(ctx.cfg, c);
}
