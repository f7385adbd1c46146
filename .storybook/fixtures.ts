import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { axiosInstance } from '@core/http/client';

/** Recorded API answers for stories (JeecgBoot envelope shapes). */
const ok = (result: unknown, message = '') => ({ success: true, code: 0, message, result, timestamp: Date.now() });

const departs = [
  { id: 'd1', key: 'd1', title: '某某大学', departName: '某某大学', orgCode: 'A01', children: [
    { id: 'd2', key: 'd2', title: '教务处', departName: '教务处', orgCode: 'A01A01', children: null },
    { id: 'd3', key: 'd3', title: '计算机学院', departName: '计算机学院', orgCode: 'A01A02', children: null },
    { id: 'd4', key: 'd4', title: '数学学院', departName: '数学学院', orgCode: 'A01A03', children: null },
  ] },
];
const users = Array.from({ length: 23 }, (_, i) => ({ id: `u${i}`, username: `teacher${i}`, realname: `教师${i + 1}`, sex: i % 2 ? 2 : 1, sex_dictText: i % 2 ? '女' : '男', birthday: `198${i % 10}-0${(i % 9) + 1}-15`, orgCodeTxt: '计算机学院' }));
const pageOf = <T,>(list: T[], params: Record<string, unknown>) => {
  const no = Number(params.pageNo ?? 1);
  const size = Number(params.pageSize ?? 10);
  return { records: list.slice((no - 1) * size, no * size), total: list.length, current: no, size };
};
const dict: Record<string, { value: string; text: string }[]> = {
  sex: [{ value: '1', text: '男' }, { value: '2', text: '女' }],
  priority: [{ value: 'L', text: '一般' }, { value: 'M', text: '重要' }, { value: 'H', text: '紧急' }],
};

function answer(url: string, params: Record<string, unknown>): unknown {
  let m: RegExpMatchArray | null;
  if ((m = url.match(/\/sys\/dict\/getDictItems\/(.+)$/))) return ok(dict[decodeURIComponent(m[1]!)] ?? []);
  if (url.includes('/sys/dict/loadDict/')) {
    const kw = String(params.keyword ?? '');
    return ok(users.filter((u) => u.realname.includes(kw) || u.username.includes(kw)).slice(0, Number(params.pageSize ?? 10)).map((u) => ({ value: u.username, text: u.realname })));
  }
  if (url.includes('/sys/dict/loadTreeData') || url.includes('/sys/category/loadTreeRoot'))
    return ok([{ key: 'c1', title: '理论课', isLeaf: false }, { key: 'c2', title: '实验课', isLeaf: true }]);
  if (url.includes('/sys/category/loadTreeChildren')) return ok([{ key: `${String(params.pid)}-1`, title: '专业课', isLeaf: true }]);
  if (url.includes('/sys/sysDepart/queryTreeList')) return ok(departs);
  if (url.includes('/sys/user/')) return ok(pageOf(users, params));
  if (url.includes('/sys/role/list')) return ok(pageOf([{ id: 'r1', roleCode: 'admin', roleName: '管理员' }, { id: 'r2', roleCode: 'teacher', roleName: '教师' }, { id: 'r3', roleCode: 'supervisor', roleName: '督导' }], params));
  if (url.includes('/sys/position/list')) return ok(pageOf(Array.from({ length: 12 }, (_, i) => ({ id: `p${i}`, code: `P${i}`, name: `职务${i + 1}`, rank_dictText: '中级' })), params));
  if (url.includes('/online/cgreport/api/getRpColumns/'))
    return ok({ cgRpConfigId: 'rp1', cgRpConfigName: '课程报表', columns: [{ dataIndex: 'name', title: '课程名称' }, { dataIndex: 'code', title: '课程编码' }], dictOptions: {} });
  if (url.includes('/online/cgreport/api/getData/')) return ok(pageOf(Array.from({ length: 8 }, (_, i) => ({ id: `c${i}`, name: `课程${i + 1}`, code: `KC${i}` })), params));
  if (url.includes('/sys/common/upload')) return ok(null, `temp/story_${Date.now()}.png`);
  return { success: false, code: 404, message: `无此示例数据: ${url}`, result: null };
}

export function installFixtures() {
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const url = String(config.url ?? '');
    if (url.includes('/sys/common/upload')) {
      for (const p of [30, 70, 100]) {
        await new Promise((r) => setTimeout(r, 150));
        config.onUploadProgress?.({ loaded: p, total: 100, bytes: p, lengthComputable: true } as never);
      }
    } else await new Promise((r) => setTimeout(r, 120));
    return { data: answer(url, (config.params ?? {}) as Record<string, unknown>), status: 200, statusText: 'OK', headers: {}, config };
  };
  axiosInstance.defaults.adapter = adapter;
}
