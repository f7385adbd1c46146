import S3rver from '@20minutes/s3rver';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { S3Config } from '../../server/storage/s3.js';
import { TMP } from './template-db.js';

export interface LocalS3 {
  config: S3Config;
  /** The store's folder on disk (objects as files), for tests that look behind the API. */
  directory: string;
  close(): Promise<void>;
}

/** A local S3-compatible server (s3rver, from npm) on a free loopback port with one empty bucket. */
export async function startLocalS3(name = `s3-${process.pid}-${Date.now()}`): Promise<LocalS3> {
  const directory = join(TMP, name);
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: 'dudao' }],
    // s3rver canonicalises an encoded `prefix=` query differently from the SDK (list calls fail its check); signatures are not what these tests are about.
    allowMismatchedSignatures: true });
  const { port } = await server.run();
  return {
    directory,
    config: { endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket: 'dudao', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true, prefix: 'files/' },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
