/** Pure layout of a weekly timetable: weekday × section cells, lessons merged over their sections. */
export interface Lesson {
  scheduleId: string;
  weekday: number;
  startSection: number;
  endSection: number;
  weeks?: string;
  courseName?: string;
  courseCode?: string;
  teacherName?: string;
  classroomName?: string;
  classNames?: string;
  lectureDate?: string | null;
}

export interface Block {
  start: number;
  span: number;
  lessons: Lesson[];
}

/** For each weekday 1..days: blocks of sections; overlapping lessons share one block. */
export function layoutWeek(lessons: Lesson[], sections: number, days = 7): Block[][] {
  const out: Block[][] = [];
  for (let d = 1; d <= days; d++) {
    const mine = lessons
      .filter((l) => Number(l.weekday) === d)
      .map((l) => ({ ...l, startSection: Math.max(1, Number(l.startSection)), endSection: Math.min(sections, Math.max(Number(l.startSection), Number(l.endSection))) }))
      .filter((l) => l.startSection <= sections)
      .sort((a, b) => a.startSection - b.startSection || a.endSection - b.endSection);
    const blocks: Block[] = [];
    for (const l of mine) {
      const last = blocks[blocks.length - 1];
      if (last && l.startSection <= last.start + last.span - 1) {
        last.span = Math.max(last.span, l.endSection - last.start + 1);
        last.lessons.push(l);
      } else blocks.push({ start: l.startSection, span: l.endSection - l.startSection + 1, lessons: [l] });
    }
    out.push(blocks);
  }
  return out;
}

/** A stable pastel colour for a course. */
export function courseColor(key: string): string {
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `hsl(${h % 360}, 70%, 94%)`;
}
