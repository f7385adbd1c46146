import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';

/**
 * 文件存储 上传: the upload widget stores each file at once (/sys/common/upload); the dialog's 完成
 * confirms that every path it got back is a stored file uploaded in this session's tenant.
 */
export async function registerFilesConfirm(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  api.post('/sys/files/confirmUpload', { config: { auth: 'system:file:upload' } }, async (req) => {
    const raw = (req.body as { file?: unknown } | undefined)?.file;
    const paths = (typeof raw === 'string' ? raw : '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!paths.length) throw new BizError('请先选择要上传的文件');
    if (paths.length > 50) throw new BizError('一次最多上传50个文件');
    const found = await ctx.db.selectFrom('sys_file').select('url').where('url', 'in', paths).where('create_by', '=', req.user!.username).execute();
    if (found.length !== new Set(paths).size) throw new BizError('部分文件未上传成功，请重新上传');
    return ok(null, `上传成功！共${found.length}个文件`);
  });
}
