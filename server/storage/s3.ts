import { PassThrough, Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { AbortMultipartUploadCommand, CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkKey, type ByteRange, type FileStorage, type PendingUpload, type StoredObject } from './types.js';

export interface S3Config {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`endpoint/bucket/key`): MinIO and most self-hosted stores need it. */
  forcePathStyle: boolean;
  /** A key prefix inside the bucket (e.g. `dudao/`), so one bucket can serve several installations. */
  prefix: string;
}

const TMP = '.tmp/';

/**
 * Files in an S3-compatible object store (MinIO, Ceph, OSS…) through the AWS SDK. An upload streams
 * (multipart, 5 MB parts) to `<prefix>.tmp/<id>`; `commit` copies it server-side to its key (the
 * object appears whole or not at all) and deletes the temp object.
 */
export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly cfg: S3Config) {
    if (!cfg.bucket) throw new Error('storage.s3.bucket is not configured');
    this.client = new S3Client({
      ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
      region: cfg.region || 'us-east-1',
      forcePathStyle: cfg.forcePathStyle,
      ...(cfg.accessKeyId ? { credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } } : {}),
      // Checksums on every request are an AWS feature many compatible stores reject.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private k(key: string) {
    return this.cfg.prefix + checkKey(key);
  }

  async upload(body: Readable): Promise<PendingUpload> {
    const tmp = `${this.cfg.prefix}${TMP}${randomUUID()}`;
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (c: Buffer) => (size += c.length));
    body.on('error', (e) => counted.destroy(e));
    body.pipe(counted);
    const up = new Upload({ client: this.client, params: { Bucket: this.cfg.bucket, Key: tmp, Body: counted }, queueSize: 2, partSize: 5 * 1024 * 1024, leavePartsOnError: false });
    try {
      await up.done();
    } catch (err) {
      await up.abort().catch(() => undefined);
      await this.client.send(new DeleteObjectCommand({ Bucket: this.cfg.bucket, Key: tmp })).catch(() => undefined);
      throw err;
    }
    let done = false;
    const drop = () => this.client.send(new DeleteObjectCommand({ Bucket: this.cfg.bucket, Key: tmp }));
    return {
      size,
      commit: async (key) => {
        await this.client.send(new CopyObjectCommand({ Bucket: this.cfg.bucket, Key: this.k(key), CopySource: `${this.cfg.bucket}/${encodeURIComponent(tmp).replace(/%2F/g, '/')}` }));
        done = true;
        await drop().catch(() => undefined); // a leftover temp object is swept later
      },
      abort: async () => {
        if (!done) await drop().catch(() => undefined);
        done = true;
      },
    };
  }

  async put(key: string, body: Readable): Promise<number> {
    checkKey(key);
    const up = await this.upload(body);
    await up.commit(key);
    return up.size;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const r = await this.client.send(new GetObjectCommand({ Bucket: this.cfg.bucket, Key: this.k(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
    return r.Body as Readable;
  }

  async stat(key: string) {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.cfg.bucket, Key: this.k(key) }));
      return { size: Number(r.ContentLength ?? 0) };
    } catch (e) {
      const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404) return undefined;
      throw e;
    }
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.cfg.bucket, Key: this.k(key) }));
  }

  private async *objects(prefix: string): AsyncGenerator<{ key: string; size: number; modified?: Date }> {
    let token: string | undefined;
    do {
      const r = await this.client.send(new ListObjectsV2Command({ Bucket: this.cfg.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of r.Contents ?? []) if (o.Key) yield { key: o.Key, size: Number(o.Size ?? 0), modified: o.LastModified };
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
  }

  async *list(prefix = ''): AsyncIterable<StoredObject> {
    const base = this.cfg.prefix;
    for await (const o of this.objects(base + prefix)) {
      const key = o.key.slice(base.length);
      if (!key.startsWith(TMP)) yield { key, size: o.size };
    }
  }

  async sweep(olderThanMs: number): Promise<number> {
    let n = 0;
    for await (const o of this.objects(this.cfg.prefix + TMP)) {
      if (o.modified && Date.now() - o.modified.getTime() > olderThanMs) {
        await this.client.send(new DeleteObjectCommand({ Bucket: this.cfg.bucket, Key: o.key }));
        n++;
      }
    }
    // Multipart uploads of a process killed mid-upload (their parts cost storage until aborted). Stores
    // without this call rely on a bucket lifecycle rule (AbortIncompleteMultipartUpload, docs/deploy.md).
    try {
      const r = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.cfg.bucket, Prefix: this.cfg.prefix + TMP }));
      for (const u of r.Uploads ?? []) {
        if (!u.Key || !u.UploadId || (u.Initiated && Date.now() - u.Initiated.getTime() <= olderThanMs)) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.cfg.bucket, Key: u.Key, UploadId: u.UploadId }));
        n++;
      }
    } catch {
      /* not supported by this store */
    }
    return n;
  }

  async close() {
    this.client.destroy();
  }
}
