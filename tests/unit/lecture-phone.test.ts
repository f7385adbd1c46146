import { beforeEach, describe, expect, it } from 'vitest';
import { changed, loadDraft, newClientKey, recall, remember, removeDraft, storeDraft, synced, type LocalDraft } from '@core/offline/drafts';
import { mobileSummary } from '@widgets/domain/LectureMobile';
import { firstListOf } from '@shared/list-request';
import type { PageSchema } from '@shared/page-schema';

describe('offline drafts', () => {
  beforeEach(() => localStorage.clear());

  it('keeps a draft across a reload (storage) and drops it when asked', () => {
    const d: LocalDraft<{ a: string }> = { clientKey: newClientKey(), values: { a: '1' }, dirty: true, rev: 1, changedAt: 1 };
    storeDraft('k', d);
    expect(loadDraft('k')).toEqual(d);
    removeDraft('k');
    expect(loadDraft('k')).toBeUndefined();
  });

  it('ignores a damaged entry', () => {
    localStorage.setItem('offline-draft:k', '{not json');
    expect(loadDraft('k')).toBeUndefined();
    localStorage.setItem('offline-draft:k', '{"values":{}}');
    expect(loadDraft('k')).toBeUndefined();
  });

  it('client keys are 32 hex characters and differ', () => {
    const a = newClientKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newClientKey()).not.toBe(a);
  });

  it('a save that answers after a newer change leaves the draft dirty; one that answers the latest makes it clean', () => {
    let d: LocalDraft<{ a: string }> = { clientKey: 'x'.repeat(32), values: { a: '' }, dirty: false, rev: 0, changedAt: 0 };
    d = changed(d, { a: '1' });
    const sent = d.rev;
    d = changed(d, { a: '12' }); // typed while the save was on its way
    d = synced(d, sent, 'rec1');
    expect(d).toMatchObject({ recordId: 'rec1', dirty: true, values: { a: '12' } });
    d = synced(d, d.rev, 'rec1');
    expect(d.dirty).toBe(false);
  });

  it('remembers answers for offline use', () => {
    expect(recall('x')).toBeUndefined();
    remember('x', { n: 1 });
    expect(recall('x')).toEqual({ n: 1 });
  });
});

describe('the phone form’s running total', () => {
  const system = {
    indexes: [
      { id: 'g', parentId: null, level: 1, name: '组', maxScore: 10 },
      { id: 'a', parentId: 'g', level: 2, name: 'A', maxScore: 5 },
      { id: 'b', parentId: 'g', level: 2, name: 'B', maxScore: 5 },
    ],
    leafIds: ['a', 'b'],
    gradeBands: [
      { grade: 'GOOD', label: '良好', min: 8 },
      { grade: 'FAIL', label: '不合格', min: 0 },
    ],
  };
  it('counts only valid scores; the grade shows once every index is scored', () => {
    expect(mobileSummary(system, { a: '4.5' })).toMatchObject({ total: 4.5, scored: 1, leaves: 2, grade: undefined });
    expect(mobileSummary(system, { a: '4.5', b: '9' })).toMatchObject({ total: 4.5, scored: 1 }); // 9 > 5: refused
    expect(mobileSummary(system, { a: '4.5', b: '4' })).toMatchObject({ total: 8.5, scored: 2, grade: { label: '良好' } });
  });
});

describe('the first request of a one-widget page (widgetLoad)', () => {
  const scan = { kind: 'dashboard', title: '扫码听课', widget: 'LectureMobile', widgetLoad: { url: '/supervisor/lectureRecord/scan', params: ['room', 'scheduleId', 'date'] } } as unknown as PageSchema;
  it('is its url with the named parameters the page URL has (others ignored), so the route answer can carry it', () => {
    expect(firstListOf(scan, '?room=R1&x=2')).toEqual({ url: '/supervisor/lectureRecord/scan', params: { room: 'R1' } });
    expect(firstListOf(scan, '?scheduleId=S&date=2026-11-27')).toEqual({ url: '/supervisor/lectureRecord/scan', params: { scheduleId: 'S', date: '2026-11-27' } });
  });
  it('is none for a dashboard with panels or without widgetLoad', () => {
    expect(firstListOf({ ...scan, panels: [] } as PageSchema, '?room=R1')).toBeUndefined();
    expect(firstListOf({ ...scan, widgetLoad: undefined } as PageSchema, '?room=R1')).toBeUndefined();
  });
});
