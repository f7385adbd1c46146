import { describe, expect, it } from 'vitest';
import { cellFileName, checkPopupConfig, ellipsis, joinMulti, moveImage, numberBlur, numberTyping, parseCondition, splitMulti, switchChecked, switchNormalize, switchValue, tagsInput, userLabel, pickedText } from './inputs';
import { areaOptions, areaPath, areaText, checkAreaType, children } from './area';
import { canAddFile, filesFromValue, uploadReducer, uploadValue } from './upload';

describe('small controls', () => {
  it('tags input: semicolons stripped, one after every 2 characters', () => {
    expect(tagsInput('abcde')).toBe('ab;cd;e');
    expect(tagsInput('a;b;c;d')).toBe('ab;cd;');
    expect(tagsInput('')).toBe('');
  });
  it('number input', () => {
    expect(numberTyping('-12.5', '-12')).toBe('-12.5');
    expect(numberTyping('12a', '12')).toBe('12');
    expect(numberTyping('1.2.', '1.2')).toBe('1.2');
    expect(numberBlur('3.50')).toBe(3.5);
    expect(numberBlur('-')).toBe('');
  });
  it('multi-select join', () => {
    expect(joinMulti(['1', 2, ''])).toBe('1,2');
    expect(joinMulti(['a', 'b'], '|')).toBe('a|b');
    expect(splitMulti('a,b')).toEqual(['a', 'b']);
    expect(splitMulti('')).toEqual([]);
  });
  it('switch values', () => {
    expect(switchChecked('Y')).toBe(true);
    expect(switchChecked('N')).toBe(false);
    expect(switchValue(true)).toBe('Y');
    expect(switchValue(false, [1, 0])).toBe(0);
    expect(switchNormalize('')).toBe('N');
    expect(switchNormalize(undefined, ['on', 'off'])).toBe('off');
  });
  it('picker display strings', () => {
    expect(userLabel({ realname: '张三', username: 'zhangsan' })).toBe('张三(zhangsan)');
    expect(pickedText([{ departName: '教务处' }, { departName: '数学学院' }], 'departName')).toBe('教务处,数学学院');
  });
  it('ellipsis and file names', () => {
    expect(ellipsis('一二三四五六七八九十一二三四五六七八九十一二三四五六')).toBe('一二三四五六七八九十一二三四五六七八九十一二三四五…');
    expect(ellipsis('abc', 2)).toBe('ab…');
    expect(ellipsis('abc', -1)).toBe('abc');
    expect(cellFileName('教学质量报告.pdf')).toBe('教学质量报….pdf');
    expect(cellFileName('a.pdf')).toBe('a.pdf');
  });
  it('image moves', () => {
    expect(moveImage(['a', 'b', 'c'], 1, 'left')).toEqual(['b', 'a', 'c']);
    expect(() => moveImage(['a', 'b'], 0, 'left')).toThrow('未知的操作');
    expect(() => moveImage(['a', 'b'], 1, 'right')).toThrow('已到最后~');
  });
  it('popup config and tree condition', () => {
    expect(checkPopupConfig('r', 'a,b', '')).toBe('popup参数未正确配置!');
    expect(checkPopupConfig('r', 'a,b', 'c')).toBe('popup参数未正确配置,原始值和目标值数量不一致!');
    expect(checkPopupConfig('r', 'a,b', 'c,d')).toBeUndefined();
    expect(parseCondition('{"a":1}')).toEqual({ a: 1 });
    expect(() => parseCondition('a=1')).toThrow('组件JTreeSelect-condition传值有误，需要一个json字符串!');
  });
});

describe('area data', () => {
  it('three levels from root 86', () => {
    const provinces = children('86');
    expect(provinces.find((p) => p.id === '110000')?.text).toBe('北京市');
    expect(areaPath('110101')).toEqual(['110000', '110100', '110101']);
    expect(areaText('110101')).toBe('北京市/市辖区/东城区');
    expect(areaOptions().length).toBeGreaterThan(30);
    expect(() => checkAreaType('tree')).toThrow('Bad type value');
  });
});

describe('upload state machine', () => {
  it('uploading → done, error, remove, value only when all done', () => {
    let f = uploadReducer([], { type: 'start', uid: 'a', name: 'a.png' });
    f = uploadReducer(f, { type: 'start', uid: 'b', name: 'b.png' });
    f = uploadReducer(f, { type: 'progress', uid: 'a', percent: 40 });
    expect(f[0]).toMatchObject({ status: 'uploading', percent: 40 });
    f = uploadReducer(f, { type: 'response', uid: 'a', body: { success: true, message: 'temp/a.png' } });
    expect(uploadValue(f)).toBeUndefined();
    f = uploadReducer(f, { type: 'response', uid: 'b', body: { success: false, message: '' } });
    expect(f[1]).toMatchObject({ status: 'error', message: '未知错误' });
    f = uploadReducer(f, { type: 'remove', uid: 'b' });
    expect(uploadValue(f)).toBe('temp/a.png');
    expect(filesFromValue('x/1.png,x/2.png')).toHaveLength(2);
    expect(canAddFile(3, 3)).toBe(false);
    expect(canAddFile(3, 0)).toBe(true);
  });
});
