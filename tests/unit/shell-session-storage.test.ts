import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';
import { jsonStorage } from '@core/session/storage';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '@core/settings';

// jotai reads an atom's storage again when the atom is first subscribed to: an equal but new object
// there would draw again everything that depends on it (the whole application, every cell of a list).
describe('atoms kept in Web Storage', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('jsonStorage hands back the object written, reads a changed text again, and treats unreadable text as nothing stored', () => {
    const s = jsonStorage<{ a: number } | null>(() => localStorage);
    expect(s.getItem('k', null)).toBeNull();
    const v = { a: 1 };
    s.setItem('k', v);
    expect(s.getItem('k', null)).toBe(v);
    localStorage.setItem('k', '{"a":2}'); // written by someone else (another tab, an older version)
    const read = s.getItem('k', null);
    expect(read).toEqual({ a: 2 });
    expect(s.getItem('k', null)).toBe(read);
    localStorage.setItem('k', '{oops');
    expect(s.getItem('k', { a: 0 })).toEqual({ a: 0 });
    s.removeItem('k');
    expect(localStorage.getItem('k')).toBeNull();
  });

  it('the session atoms keep the values written to them when first subscribed to', async () => {
    vi.resetModules();
    const { authAtom, userInfoAtom } = await import('@core/session/store');
    const store = createStore();
    const auth = [{ action: 'user:add', type: '1' }];
    const user = { id: 'u1', username: 'admin', realname: '管理员' };
    store.set(authAtom, auth);
    store.set(userInfoAtom, user);
    const unsub = [store.sub(authAtom, () => undefined), store.sub(userInfoAtom, () => undefined)];
    expect(store.get(authAtom)).toBe(auth);
    expect(store.get(userInfoAtom)).toBe(user);
    expect(JSON.parse(sessionStorage.getItem('LOGIN_USER_BUTTON_AUTH')!)).toEqual(auth);
    expect(JSON.parse(localStorage.getItem('Login_Userinfo')!).value).toEqual(user);
    unsub.forEach((u) => u());
  });

  it('the stored settings keep their identity when first subscribed to, and change when written', async () => {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ navTheme: 'light' }));
    vi.resetModules(); // the atom reads the storage when its module is evaluated
    const { settingsAtom } = await import('@core/settings');
    const store = createStore();
    const before = store.get(settingsAtom);
    expect(before).toEqual({ ...DEFAULT_SETTINGS, navTheme: 'light' });
    const unsub = store.sub(settingsAtom, () => undefined);
    expect(store.get(settingsAtom)).toBe(before);
    const next = { ...before, collapsed: true };
    store.set(settingsAtom, next);
    expect(store.get(settingsAtom)).toBe(next);
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY)!)).toMatchObject({ navTheme: 'light', collapsed: true });
    unsub();
  });
});
