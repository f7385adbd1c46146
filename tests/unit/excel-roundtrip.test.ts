import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildXlsx, neutralise, readXlsx, unneutralise, zipInflatedSize } from '../../server/crud/excel.js';
import type { EntitySchema } from '../../server/crud/entity-types.js';

const e: EntitySchema = {
  name: 'demo', table: 'demo', title: '示例/导出',
  fields: [
    { name: 'id', type: 'string', length: 32, primary: true },
    { name: 'name', type: 'string', length: 50, excel: '名称' },
    { name: 'sex', type: 'integer', dict: 'sex', excel: '性别' },
    { name: 'age', type: 'integer', excel: '年龄' },
    { name: 'birthday', type: 'date', excel: '生日' },
    { name: 'pwd', type: 'string', length: 10, secret: true, excel: '密码' },
    { name: 'memo', type: 'text' },
  ],
};

describe('formula neutralising', () => {
  it.each(['=1+1', '+A1', '-2+3', '@SUM(A1)', '\t=x'])('%s is neutralised and restored', (s) => {
    expect(neutralise(s)).toBe(`'${s}`);
    expect(unneutralise(neutralise(s))).toBe(s);
  });
  it('leaves ordinary text alone', () => {
    expect(neutralise('张三')).toBe('张三');
    expect(unneutralise("'quoted")).toBe("'quoted");
  });
});

describe('export → import round trip', () => {
  it('writes titles, dictionary texts and text-only cells, and reads them back', async () => {
    const rows = [
      { id: '1', name: '=cmd|calc', sex: 1, sex_dictText: '男', age: 30, birthday: '1990-05-06', pwd: 'secret', memo: 'x' },
      { id: '2', name: '李四', sex: 2, sex_dictText: '女', age: null, birthday: null },
    ];
    const buf = await buildXlsx(e, rows);
    const back = await readXlsx(buf, 'a.xlsx', ['名称', '性别', '年龄', '生日'], 100);
    expect(back.map((r) => r.cells)).toEqual([
      { 名称: '=cmd|calc', 性别: '男', 年龄: '30', 生日: '1990-05-06' },
      { 名称: '李四', 性别: '女', 年龄: '', 生日: '' },
    ]);
    expect(back.map((r) => r.rowNo)).toEqual([2, 3]);
    // secrets never reach the file
    expect(buf.toString('latin1')).not.toContain('secret');
  });

  it('keeps the header bold and numbers numeric while data cells share one plain style', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({ id: String(i), name: `n${i}`, age: 20 + i }));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await buildXlsx(e, rows)) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('A2').font?.bold).toBeFalsy();
    expect(ws.getCell('C4').value).toBe(22);
    expect(ws.getCell('A4').value).toBe('n2');
  });

  it('stops at the row limit', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: String(i), name: `n${i}` }));
    await expect(readXlsx(await buildXlsx(e, rows), 'b.xlsx', ['名称'], 10)).rejects.toThrow('超过10行');
  });
});

describe('zip-bomb guard', () => {
  it('reads the declared decompressed size and refuses files past the limit before inflating', async () => {
    const buf = await buildXlsx(e, [{ id: '1', name: 'x' }]);
    const size = zipInflatedSize(buf);
    expect(size).toBeGreaterThan(buf.length);
    await expect(readXlsx(buf, 'c.xlsx', ['名称'], 10, size - 1)).rejects.toThrow('解压后超过');
    expect((await readXlsx(buf, 'c.xlsx', ['名称'], 10, size)).length).toBe(1);
  });
  it('treats a zip without a readable directory as invalid', async () => {
    const buf = await buildXlsx(e, []);
    expect(zipInflatedSize(buf.subarray(0, buf.length - 30))).toBe(Infinity);
    await expect(readXlsx(Buffer.concat([buf.subarray(0, 100), Buffer.alloc(50)]), 'd.xlsx', ['名称'], 10)).rejects.toThrow('不是有效的 Excel');
  });
});
