import { useNavigate } from 'react-router-dom';
import { auth } from '@core/auth';
import { useEffect, useMemo, useState } from 'react';
import { Alert, Card, Empty, Radio, Select, Space, Spin, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useSearchParams } from 'react-router-dom';
import { http } from '@core/http/client';
import { dataProvider } from '@core/data';
import { userInfoAtom } from '@core/session/store';
import type { Lesson } from './grid';
import { WeekGrid, type Section } from './WeekGrid';

type By = 'teacher' | 'class' | 'room';
const PARAM: Record<By, string> = { teacher: 'teacherId', class: 'classId', room: 'classroomId' };
type Opt = { value: string; label: string };

/** Remote-search options for the chosen kind (users through the safe picker route, classes, rooms). */
async function searchOptions(by: By, kw: string): Promise<Opt[]> {
  const k = kw.trim();
  if (by === 'teacher') {
    const r = await http.get<{ records: Array<{ id: string; realname: string; username: string }> }>('/sys/user/queryUserComponentDataWithRole', { realname: k || undefined, pageSize: 30 });
    return r.success ? r.result.records.map((u) => ({ value: u.id, label: `${u.realname}（${u.username}）` })) : [];
  }
  const r = await dataProvider.getList(by === 'class' ? '/supervisor/classes' : '/supervisor/classroom', { pageSize: 30, filter: { name: k ? `*${k}*` : undefined } });
  return r.result.records.map((x) => ({ value: String(x.id), label: x.code ? `${x.name}（${x.code}）` : String(x.name) }));
}

/**
 * A weekly timetable (weekday × section) of a teacher, class or room, for the whole term or one week
 * (GET /supervisor/courseSchedule/timetable). Reads `teacherId` | `classId` | `classroomId` and `week`
 * from the address; a user with lessons of their own sees their own timetable first.
 */
export function TimetableGrid({ sections: fixedSections }: { sections?: number }) {
  const nav = useNavigate();
  // Who records observations starts a record from a lesson of a dated week (听课 on the lesson).
  const observer = auth.can('supervisor:lectureRecord:add');
  const [params, setParams] = useSearchParams();
  const user = useAtomValue(userInfoAtom);
  const by: By = params.get('classId') ? 'class' : params.get('classroomId') ? 'room' : 'teacher';
  const [mode, setMode] = useState<By>(by);
  const id = params.get(PARAM[by]) ?? (by === 'teacher' ? (user?.id ?? '') : '');
  const week = Number(params.get('week')) || 0;
  const [options, setOptions] = useState<Opt[]>([]);
  const [lessons, setLessons] = useState<Lesson[] | undefined>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [term, setTerm] = useState<{ name: string; weekCount: number; week: number } | null>();
  const [sectionTimes, setSectionTimes] = useState<Section[]>([]);

  useEffect(() => {
    void http.get<{ term: { name: string; weekCount: number; week: number } | null }>('/supervisor/dashboard/summary').then((r) => setTerm(r.success ? r.result.term : null));
    void dataProvider.getList('/supervisor/sectionTime', { pageSize: 200, sort: { column: 'sectionNo', order: 'asc' } }).then((r) => {
      if (!r.success) return;
      const m = new Map<number, Section>();
      for (const s of r.result.records) if (!m.has(Number(s.sectionNo))) m.set(Number(s.sectionNo), { no: Number(s.sectionNo), begin: s.beginTime as string | undefined, end: s.endTime as string | undefined });
      setSectionTimes([...m.values()].sort((a, b) => a.no - b.no));
    });
  }, []);

  useEffect(() => {
    let live = true;
    void searchOptions(mode, '').then((o) => live && setOptions(o));
    return () => {
      live = false;
    };
  }, [mode]);

  // The selected entity may not be among the first search results: keep its label known.
  const [selectedLabel, setSelectedLabel] = useState<string>();
  useEffect(() => {
    if (by === 'teacher' && id && id === user?.id) setSelectedLabel(user?.realname);
  }, [by, id, user]);

  useEffect(() => {
    if (!id) {
      setLessons(undefined);
      return;
    }
    let live = true;
    setLoading(true);
    setError(undefined);
    void http
      .get<Lesson[]>('/supervisor/courseSchedule/timetable', { [PARAM[by]]: id, week: week || undefined })
      .then((r) => {
        if (!live) return;
        if (r.success) setLessons(r.result);
        else {
          setLessons(undefined);
          setError(r.message || '课表加载失败');
        }
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [by, id, week]);

  const sectionCount = fixedSections ?? Math.max(sectionTimes.at(-1)?.no ?? 12, ...(lessons ?? []).map((l) => Number(l.endSection)));
  const rows = useMemo(() => Array.from({ length: sectionCount }, (_, i) => sectionTimes.find((s) => s.no === i + 1) ?? { no: i + 1 }), [sectionCount, sectionTimes]);

  const select = (key: By, value?: string, label?: string) => {
    const next = new URLSearchParams();
    if (value) next.set(PARAM[key], value);
    if (week) next.set('week', String(week));
    setSelectedLabel(label);
    setParams(next, { replace: true });
  };
  const setWeek = (w: number) => {
    const next = new URLSearchParams(params);
    if (w) next.set('week', String(w));
    else next.delete('week');
    setParams(next, { replace: true });
  };
  const opts = id && mode === by && !options.some((o) => o.value === id) ? [{ value: id, label: selectedLabel ?? id }, ...options] : options;
  const placeholder = mode === 'teacher' ? '输入教师姓名搜索' : mode === 'class' ? '输入班级名称搜索' : '输入教室名称搜索';

  return (
    <Card variant="borderless" title="课表" extra={term ? <Typography.Text type="secondary">{term.name} · 当前第 {term.week} 周</Typography.Text> : null}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Radio.Group
          value={mode}
          optionType="button"
          options={[
            { value: 'teacher', label: '教师课表' },
            { value: 'class', label: '班级课表' },
            { value: 'room', label: '教室课表' },
          ]}
          onChange={(e) => setMode(e.target.value as By)}
        />
        <Select
          aria-label="课表对象"
          showSearch
          allowClear
          filterOption={false}
          style={{ width: 260 }}
          placeholder={placeholder}
          value={mode === by && id ? id : undefined}
          options={opts}
          onSearch={(kw) => void searchOptions(mode, kw).then(setOptions)}
          onChange={(v?: string, o?: Opt | Opt[]) => select(mode, v, Array.isArray(o) ? undefined : o?.label)}
        />
        <Select
          aria-label="周次"
          style={{ width: 140 }}
          value={week}
          onChange={setWeek}
          options={[{ value: 0, label: '全部周次' }, ...Array.from({ length: term?.weekCount ?? 20 }, (_, i) => ({ value: i + 1, label: `第 ${i + 1} 周` }))]}
        />
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      {/* Another kind chosen than the one shown: ask for one of that kind (the grid would show the previous one's lessons). */}
      {!id || mode !== by ? (
        <Empty description={mode === 'teacher' ? '请选择教师' : mode === 'class' ? '请选择班级' : '请选择教室'} />
      ) : (
        <Spin spinning={loading}>
          <WeekGrid lessons={lessons ?? []} sections={rows} by={by} onObserve={observer ? (l) => nav(`/supervisor/lectureRecord?scheduleId=${encodeURIComponent(l.scheduleId)}&lectureDate=${l.lectureDate}`) : undefined} />
          {lessons && lessons.length === 0 && !loading && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, textAlign: 'center' }}>
              {week ? `第 ${week} 周没有课程` : '本学期没有排课'}
            </Typography.Paragraph>
          )}
        </Spin>
      )}
    </Card>
  );
}
