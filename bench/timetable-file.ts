import ExcelJS from 'exceljs';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TIMETABLE_TITLES } from '../server/domain/import.js';

/**
 * A timetable in the academic-affairs export format the importer accepts (server/domain/import.ts):
 * `rows` data rows, two per course task (课程号 `${prefix}<n>`, 课序号 01) on different weekdays, so
 * an import creates rows/2 courses and tasks and `rows` schedule lines, plus `${prefix}` classes
 * and rooms. Written with exceljs' streaming writer (shared strings, like Excel) so 50k rows stay cheap.
 * Used by the import bench and the "killed during an import" fault test.
 */
export async function timetableXlsx(rows: number, teachers: Array<{ workNo: string; realname: string }>, prefix: string): Promise<Buffer> {
  const file = join(tmpdir(), `timetable-${process.pid}-${Date.now()}.xlsx`);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const ws = wb.addWorksheet('课表');
  ws.addRow(TIMETABLE_TITLES).commit();
  for (let i = 0; i < rows; i++) {
    const t = teachers[i % teachers.length]!;
    const task = Math.floor(i / 2);
    const day = '一二三四五'[i % 5];
    const sections = `${1 + (i % 4) * 2}-${2 + (i % 4) * 2}`;
    ws.addRow([
      `${prefix}${task}`, `${prefix}课程${task}`, '01', '计算机学院', 3, t.workNo, t.realname, `${prefix}班${task % 50}`, 40 + (i % 60),
      i % 3 ? `1-8,10-16周星期${day}${sections}节` : `1-15周(单)星期${day}${sections}节`, `${prefix}楼${task % 40}`,
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  try {
    return readFileSync(file);
  } finally {
    rmSync(file, { force: true });
  }
}

/** The multipart body of an upload of `files` under the field name `file`. */
export function multipart(files: Array<{ name: string; data: Buffer }>) {
  const boundary = `----bench${Date.now()}`;
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${encodeURIComponent(f.name)}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`));
    parts.push(f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs the files to an import route of a running server; returns the JeecgBoot envelope. */
export async function uploadTimetable(url: string, path: string, token: string, files: Array<{ name: string; data: Buffer }>) {
  const m = multipart(files);
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'X-Access-Token': token, 'content-type': m.contentType }, body: m.body });
  return (await r.json()) as { success: boolean; code: number; message: string; result: any };
}
