/**
 * The password policy of SPEC §5 (修改密码), shared by the server and the browser: pure functions,
 * no Node or DOM imports. `checkPassword` returns the message of the first failing rule, or null.
 */
export const PASSWORD_MESSAGES = {
  required: '请输入新密码',
  strength: '密码长度需要在8-32位，数字、小写字母、大写字母、特殊字符，至少包含三种',
  username: '密码不能包含用户名',
  sequence: '不能包含3个及以上相同或字典连续字符',
  keyboard: '不能包含3个及以上键盘连续字符',
} as const;

const KEYBOARD_ROWS = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./', '~!@#$%^&*()_+'];

function classes(pw: string): number {
  return [/[0-9]/, /[a-z]/, /[A-Z]/, /[^0-9a-zA-Z]/].filter((r) => r.test(pw)).length;
}

/** Three equal characters in a row, or three dictionary-consecutive ones (abc, cba, 123, 321), letters case-insensitive. */
export function hasSequence(pw: string): boolean {
  const s = pw.toLowerCase();
  for (let i = 0; i + 2 < s.length; i++) {
    const a = s.charCodeAt(i);
    const b = s.charCodeAt(i + 1);
    const c = s.charCodeAt(i + 2);
    if (a === b && b === c) return true;
    const alnum = (x: number) => (x >= 48 && x <= 57) || (x >= 97 && x <= 122);
    if (alnum(a) && alnum(b) && alnum(c) && ((b - a === 1 && c - b === 1) || (a - b === 1 && b - c === 1))) return true;
  }
  return false;
}

/** Three keys next to each other on one keyboard row (qwe, ewq, asd, !@#), case-insensitive. */
export function hasKeyboardRun(pw: string): boolean {
  const s = pw.toLowerCase();
  for (let i = 0; i + 2 < s.length; i++) {
    const tri = s.slice(i, i + 3);
    const rev = [...tri].reverse().join('');
    if (KEYBOARD_ROWS.some((row) => row.includes(tri) || row.includes(rev))) return true;
  }
  return false;
}

export function checkPassword(pw: string | null | undefined, username?: string | null): string | null {
  if (!pw) return PASSWORD_MESSAGES.required;
  if (pw.length < 8 || pw.length > 32 || classes(pw) < 3) return PASSWORD_MESSAGES.strength;
  if (username && pw.toLowerCase().includes(username.toLowerCase())) return PASSWORD_MESSAGES.username;
  if (hasSequence(pw)) return PASSWORD_MESSAGES.sequence;
  if (hasKeyboardRun(pw)) return PASSWORD_MESSAGES.keyboard;
  return null;
}
