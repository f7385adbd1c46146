import { describe, expect, it } from 'vitest';
import { checkPassword, hasKeyboardRun, hasSequence, PASSWORD_MESSAGES as M } from '../../shared/password-policy.js';

describe('checkPassword (SPEC §5 修改密码)', () => {
  it.each([
    ['', M.required],
    ['Ab1#', M.strength],
    ['abcdefghijk', M.strength],
    ['Abcdefghijk', M.strength],
    ['Xy7#' + 'k'.repeat(29), M.strength],
    ['Zk9#teacherX', M.username],
    ['Zk9#TEACHERx', M.username],
    ['Zk9#mmm2Wq', M.sequence],
    ['Zk9#abc2Wq', M.sequence],
    ['Zk9#cba2Wq', M.sequence],
    ['Zk9#789xWq', M.sequence],
    ['Zk9#qwe2Mx', M.keyboard],
    ['Zk9#dsa2Mx', M.keyboard],
    ['Zk2!@#x9Pm', M.keyboard],
  ])('%s → %s', (pw, msg) => {
    expect(checkPassword(pw, 'teacher')).toBe(msg);
  });

  it('accepts good passwords, including the demo one', () => {
    for (const pw of ['Observe#2026', 'Nw7#Kp2Zr', 'Tz7#qa8Lp', 'h7Kp2Wx9Tm']) expect(checkPassword(pw, 'teacher')).toBeNull();
  });

  it('needs three of four character classes', () => {
    expect(checkPassword('h7kp2wx9tm', 'u')).toBe(M.strength);
    expect(checkPassword('h7kp2wx9tM', 'u')).toBeNull();
    expect(checkPassword('hKpWxTmQ#!', 'u')).toBeNull();
  });

  it('detects runs in both directions, letters case-insensitively', () => {
    expect(hasSequence('xABCx')).toBe(true);
    expect(hasSequence('x321x')).toBe(true);
    expect(hasSequence('a1b2c3')).toBe(false);
    expect(hasKeyboardRun('xASDx')).toBe(true);
    expect(hasKeyboardRun('xmnbx')).toBe(true);
    expect(hasKeyboardRun('qazwsx')).toBe(false);
  });
});
