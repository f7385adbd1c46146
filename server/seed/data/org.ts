import { sha256 } from '../../util.js';

/** The demo university (DESIGN §5): departments with hierarchical orgCodes, and the demo accounts. */
export interface DepartSeed {
  orgCode: string;
  name: string;
  /** depart_type: 1 教学单位, 2 职能部门, 3 教辅单位 */
  type: '1' | '2' | '3';
  abbr?: string;
  children?: DepartSeed[];
}

/** Stable ids, so other seed steps can refer to departments and users without a lookup. */
export const departId = (orgCode: string) => sha256(`depart|${orgCode}`).slice(0, 32);
export const userId = (username: string) => sha256(`user|${username}`).slice(0, 32);
export const roleId = (code: string) => sha256(`role|${code}`).slice(0, 32);

export const ROOT_ORG = 'A01';
export const QUALITY_CENTER = 'A01A01A01';
export const CS_COLLEGE = 'A01A04';
export const MATH_COLLEGE = 'A01A05';

export const DEPARTS: DepartSeed = {
  orgCode: ROOT_ORG, name: '某某大学', type: '2', abbr: 'MMU',
  children: [
    { orgCode: 'A01A01', name: '教务处', type: '2', children: [{ orgCode: QUALITY_CENTER, name: '质量评估中心', type: '2' }] },
    { orgCode: 'A01A02', name: '学生处', type: '2' },
    { orgCode: 'A01A03', name: '人事处', type: '2' },
    {
      orgCode: CS_COLLEGE, name: '计算机学院', type: '1',
      children: [
        { orgCode: 'A01A04A01', name: '软件工程教研室', type: '1' },
        { orgCode: 'A01A04A02', name: '计算机科学教研室', type: '1' },
      ],
    },
    { orgCode: MATH_COLLEGE, name: '数学与统计学院', type: '1' },
    { orgCode: 'A01A06', name: '外国语学院', type: '1' },
    { orgCode: 'A01A07', name: '机械工程学院', type: '1' },
    { orgCode: 'A01A08', name: '经济管理学院', type: '1' },
    { orgCode: 'A01A09', name: '文学院', type: '1' },
    { orgCode: 'A01A10', name: '物理与电子工程学院', type: '1' },
    { orgCode: 'A01A11', name: '化学化工学院', type: '1' },
    { orgCode: 'A01A12', name: '图书馆', type: '3' },
    { orgCode: 'A01A13', name: '现代教育技术中心', type: '3' },
    { orgCode: 'A01A14', name: '校长办公室', type: '2' },
  ],
};

/** The eight colleges (teaching units that get a leader, a secretary and teachers). */
export const COLLEGES = ['A01A04', 'A01A05', 'A01A06', 'A01A07', 'A01A08', 'A01A09', 'A01A10', 'A01A11'];

export interface DemoAccount {
  username: string;
  realname: string;
  roles: string[];
  departs: string[];
  sex: 1 | 2;
  phone: string;
  workNo: string;
  title?: string;
  listenerCategory?: string;
  post?: string;
  relTenantIds?: string;
}

export const DEMO_PASSWORD = 'Observe#2026';

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { username: 'admin', realname: '系统管理员', roles: ['admin'], departs: [QUALITY_CENTER], sex: 1, phone: '13800000001', workNo: 'T0000001', post: '系统管理员' },
  { username: 'supervisor', realname: '张建国', roles: ['supervisor'], departs: [QUALITY_CENTER], sex: 1, phone: '13800000002', workNo: 'T0000002', title: 'professor', listenerCategory: 'supervisor', post: '校级督导' },
  { username: 'leader', realname: '李明华', roles: ['leader'], departs: [CS_COLLEGE], sex: 1, phone: '13800000003', workNo: 'T0000003', title: 'professor', listenerCategory: 'college_leader', post: '院长' },
  { username: 'secretary', realname: '陈静', roles: ['secretary'], departs: [CS_COLLEGE], sex: 2, phone: '13800000004', workNo: 'T0000004', title: 'lecturer', post: '教学秘书' },
  { username: 'deptadmin', realname: '刘洋', roles: ['deptadmin'], departs: [CS_COLLEGE], sex: 1, phone: '13800000005', workNo: 'T0000005', post: '部门管理员' },
  { username: 'teacher', realname: '王磊', roles: ['teacher'], departs: [CS_COLLEGE], sex: 1, phone: '13800000006', workNo: 'T0000006', title: 'lecturer', listenerCategory: 'teacher' },
  // Two departments (multi_depart 2) and two tenants (tenant selection).
  { username: 'teacher2', realname: '赵婷', roles: ['teacher'], departs: [CS_COLLEGE, MATH_COLLEGE], sex: 2, phone: '13800000007', workNo: 'T0000007', title: 'assoc_professor', listenerCategory: 'teacher', relTenantIds: '1,2' },
];

export const TENANTS = [
  { id: 1, name: '某某大学' },
  { id: 2, name: '某某大学继续教育学院' },
];

export const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
export const GIVEN_MALE = ['伟', '强', '磊', '军', '勇', '杰', '涛', '斌', '超', '明', '刚', '平', '辉', '鹏', '华', '飞', '鑫', '波', '宁', '健', '志强', '建华', '文博', '晓东', '振宇', '国栋', '海涛', '俊杰', '子豪', '宏伟', '家明', '立新', '永康', '德胜', '思远', '浩然'];
export const GIVEN_FEMALE = ['芳', '娜', '敏', '静', '丽', '艳', '娟', '霞', '燕', '玲', '婷', '雪', '慧', '琳', '洁', '晶', '颖', '倩', '红梅', '秀英', '玉兰', '晓燕', '雅琴', '佳怡', '梦瑶', '欣怡', '思雨', '丽华', '海燕', '春燕', '文静', '雨萱'];
export const TITLES = ['professor', 'assoc_professor', 'lecturer', 'assistant'];
