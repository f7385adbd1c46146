import { describe, expect, it } from 'vitest';
import { checkFormRules, formRules, validateValue, validateValueSync } from './validation';

describe('validation presets', () => {
  const ok = (pattern: string, v: string) => validateValueSync(v, [{ pattern, message: 'bad' }]);
  it.each([
    ['n6-16', '123456', '12345'],
    ['*6-16', 'ab cd!', 'abcde'],
    ['s6-18', 'abcDEF', 'abc12f'],
    ['url', 'https://a.example.com/x?y=1', 'a.example.com'],
    ['e', 'a.b@c.edu.cn', 'a@b'],
    ['m', '13912345678', '12912345678'],
    ['p', '100084', '10008'],
    ['s', 'abc', 'ab1'],
    ['n', '-12.5', '1.2.3'],
    ['z', '-12', '1.5'],
    ['money', '12.34', '12.345'],
    ['^a\\d$', 'a1', 'a12'],
  ])('%s accepts %s and rejects %s', (pattern, good, bad) => {
    expect(ok(pattern, good)).toBeUndefined();
    expect(ok(pattern, bad)).toBe('bad');
  });

  it('skips patterns on empty values but * and required fail', () => {
    expect(ok('m', '')).toBeUndefined();
    expect(ok('*', '')).toBe('bad');
    expect(validateValueSync('', [{ required: true }], { title: '姓名' })).toBe('姓名不能为空');
  });

  it('first failing rule wins', () => {
    const rules = [{ required: true, message: 'r' }, { pattern: 'z', message: 'z' }, { pattern: 'n6-16', message: 'n' }];
    expect(validateValueSync('', rules)).toBe('r');
    expect(validateValueSync('1.5', rules)).toBe('z');
    expect(validateValueSync('15', rules)).toBe('n');
    expect(validateValueSync('123456', rules)).toBeUndefined();
  });

  it('unique and only fail with two equal values in the column', () => {
    expect(validateValueSync('a', [{ unique: true, message: 'dup' }], { columnValues: ['a', 'b', 'a'] })).toBe('dup');
    expect(validateValueSync('b', [{ pattern: 'only', message: 'dup' }], { columnValues: ['a', 'b', 'a'] })).toBeUndefined();
  });

  it('async handlers accept or reject with a message', async () => {
    const rules = [{ handler: async (v: unknown) => (v === 'x' ? '不能是x' : undefined) }];
    expect(await validateValue('x', rules)).toBe('不能是x');
    expect(await validateValue('y', rules)).toBeUndefined();
    expect(await validateValue('y', [{ handler: () => false, message: 'no' }])).toBe('no');
  });
});

describe('named form rules', () => {
  it('mobile', () => {
    expect(checkFormRules('', formRules.mobile)).toBe('请输入手机号');
    expect(checkFormRules('16912345678', formRules.mobile)).toBe('请输入正确手机号');
    expect(checkFormRules('13912345678', formRules.mobile)).toBeUndefined();
  });
  it('username', () => {
    expect(checkFormRules('', formRules.username)).toBe('请输入用户名');
    expect(checkFormRules('ab-c', formRules.username)).toBe('只允许字母、数字、下划线');
    expect(checkFormRules('abc', formRules.username)).toBe('长度6到18个字符');
    expect(checkFormRules('abcd', formRules.username)).toBeUndefined();
  });
  it('email optional, and others', () => {
    expect(checkFormRules('', formRules.email)).toBeUndefined();
    expect(checkFormRules('x@', formRules.email)).toBe('邮箱格式不正确');
    expect(checkFormRules('0123456789', formRules.bankCard)).toBe('请输入正确的银行卡号码');
    expect(checkFormRules('1234', formRules.qq)).toBe('请输入正确的QQ号码');
    expect(checkFormRules('ftp://x', formRules.httpUrl)).toBe('请输入以http和https开头的网址');
    expect(checkFormRules('a', formRules.cnEnSpace)).toBe('请输入2到100位的中英文字符和空格');
    expect(checkFormRules('12', formRules.requiredLength(3, 5))).toBe('最小长度3位字符');
    expect(checkFormRules(['a'], formRules.checkboxCount(2))).toBe('最少选择2项');
    expect(checkFormRules(['a', 'b', 'c'], formRules.checkboxCount(1, 2))).toBe('最多选择2项');
  });
});
