import { describe, expect, it } from 'vitest';
import { accessOf, excludedUnder, filterActions, permittedUnder } from '../../renderer/permissions';

const allAuth = [
  { action: 'demo:customer:add', type: '1', status: '1' },
  { action: 'demo:customer:edit', type: '2', status: '1' },
  { action: 'demo:customer:deleteBatch', type: '1', status: '1' },
  { action: 'demo:customer:exportXls', type: '1', status: '0' },
  { action: 'demo:customer:importExcel', type: '1', status: '1' },
];

describe('permission pipeline (SPEC §6)', () => {
  it('allows the user own codes and removes defined, enabled codes they lack', () => {
    const p = { auth: [{ action: 'demo:customer:add', type: '1' }], allAuth };
    expect(accessOf('demo:customer:add', p)).toBe('allow');
    expect(accessOf('demo:customer:importExcel', p)).toBe('hide');
    expect(accessOf(undefined, p)).toBe('allow');
  });

  it('status "0" (an inactive rule) does not restrict', () => {
    const p = { auth: [{ action: 'demo:customer:add', type: '1' }], allAuth };
    expect(accessOf('demo:customer:exportXls', p)).toBe('allow');
  });

  it('disable-mode definitions disable instead of removing; a user without type-2 grants is not restricted by them', () => {
    const withType2 = { auth: [{ action: 'other:thing', type: '2' }], allAuth };
    expect(accessOf('demo:customer:edit', withType2)).toBe('disable');
    const without = { auth: [{ action: 'demo:customer:add', type: '1' }], allAuth };
    expect(accessOf('demo:customer:edit', without)).toBe('allow');
  });

  it("the form's permission list grants or denies", () => {
    const p = { auth: [], allAuth, formPerms: [{ action: 'demo:customer:importExcel' }, { action: 'demo:customer:add', isAuth: false }] };
    expect(accessOf('demo:customer:importExcel', p)).toBe('allow');
    expect(accessOf('demo:customer:add', p)).toBe('hide');
  });

  it('codes defined nowhere and not held are removed', () => {
    expect(accessOf('x:y:z', { auth: [], allAuth: [] })).toBe('hide');
  });

  it('toolbar prefix exclusions hide add and batch delete', () => {
    const p = { auth: [{ action: 'demo:customer:importExcel', type: '1' }], allAuth };
    expect(excludedUnder('demo:customer', p).sort()).toEqual(['add', 'deleteBatch']);
    const actions = [
      { key: 'add' },
      { key: 'batchDelete' },
      { key: 'import', permission: 'demo:customer:importExcel' },
      { key: 'edit', permission: 'demo:customer:edit' },
      { key: 'hidden', visible: false },
      { key: 'cond', disabled: true },
    ];
    const out = filterActions(actions, { auth: [{ action: 'demo:customer:importExcel', type: '2' }], allAuth }, { prefix: 'demo:customer' });
    expect(out.map((a) => a.key)).toEqual(['import', 'edit', 'cond']);
    expect(out.find((a) => a.key === 'edit')?.denied).toBe(true);
    expect(out.find((a) => a.key === 'cond')?.denied).toBe(true);
    expect(out.find((a) => a.key === 'import')?.denied).toBeUndefined();
    expect(permittedUnder('demo:customer', { auth: [{ action: 'demo:customer:add', type: '1' }, { action: 'demo:customer:x', type: '2' }], allAuth })).toEqual(['add']);
  });
});
