import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { defineEntityHooks } from '../crud/hooks.js';
import { BizError } from '../http/envelope.js';

/**
 * 多数据源: stored connection entries only — the product never connects to them. The password is
 * write-only: it is a `secret` field (never in list/queryById/export/data log), stored encrypted with
 * AES-256-GCM under DATA_SOURCE_KEY (or a random key kept in the data folder), and an edit that leaves it empty keeps it.
 */
const keys = new WeakMap<ServerContext, Buffer>();
/**
 * The encryption key: DATA_SOURCE_KEY, else a random key created once in the data folder
 * (`data-source.key`, owner-only). Never the request-signing secret (issue 27 rule 9).
 */
function keyOf(ctx: ServerContext): Buffer {
  let k = keys.get(ctx);
  if (k) return k;
  if (process.env.DATA_SOURCE_KEY) k = createHash('sha256').update(process.env.DATA_SOURCE_KEY).digest();
  else {
    const file = join(ctx.cfg.dataDir, 'data-source.key');
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    }
    k = createHash('sha256').update(readFileSync(file, 'utf8').trim()).digest();
  }
  keys.set(ctx, k);
  return k;
}

export function encryptSecret(ctx: ServerContext, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(ctx), iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `v1:${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
}

/** For code that must use a stored password (none today); throws on a wrong key or tampered value. */
export function decryptSecret(ctx: ServerContext, stored: string): string {
  const raw = Buffer.from(stored.replace(/^v1:/, ''), 'base64');
  const d = createDecipheriv('aes-256-gcm', keyOf(ctx), raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
}

export async function registerDataSource(_api: FastifyInstance, ctx: ServerContext): Promise<void> {
  defineEntityHooks(
    'sys_data_source',
    {
      beforeSave(_h, row, _mode, _old, input) {
        const pw = input.dbPassword;
        if (typeof pw === 'string' && pw !== '') {
          if (pw.length > 200) throw new BizError('密码不能超过200个字符');
          row.dbPassword = encryptSecret(ctx, pw);
        }
      },
    },
    'data-source',
  );
}
