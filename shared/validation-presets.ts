/**
 * The validation presets of SPEC §5, one table for the browser's forms and editable tables and the
 * server's entity validation: the same value is accepted or refused on both sides.
 */
export interface PatternPreset {
  code: string;
  /** Shown in the validation picker. */
  title: string;
  pattern: RegExp;
  /** The default message when a value does not match. */
  message: string;
}

export const PATTERN_PRESETS: readonly PatternPreset[] = [
  { code: '*', title: '非空', pattern: /^[\s\S]+$/, message: '该字段不能为空' },
  { code: 'n6-16', title: '6到16位数字', pattern: /^\d{6,16}$/, message: '请输入6到16位数字' },
  { code: '*6-16', title: '6到16位任意字符', pattern: /^[\s\S]{6,16}$/, message: '请输入6到16位任意字符' },
  { code: 's6-18', title: '6到18位字母', pattern: /^[a-zA-Z]{6,18}$/, message: '请输入6到18位字母' },
  { code: 'url', title: '网址', pattern: /^(https?|ftp):\/\/[\w-]+(\.[\w-]+)+([\w.,@?^=%&:/~+#-]*[\w@?^=%&/~+#-])?$/, message: '请输入正确的网址' },
  { code: 'e', title: '电子邮件', pattern: /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/, message: '邮箱格式不正确' },
  { code: 'm', title: '手机号码', pattern: /^1[3-9]\d{9}$/, message: '请输入正确手机号' },
  { code: 'p', title: '邮政编码', pattern: /^\d{6}$/, message: '请输入正确的邮政编码' },
  { code: 's', title: '字母', pattern: /^[A-Za-z]+$/, message: '请输入字母' },
  { code: 'n', title: '数字', pattern: /^-?\d+(\.\d+)?$/, message: '请输入数字' },
  { code: 'z', title: '整数', pattern: /^-?\d+$/, message: '请输入整数' },
  // Not negative, no leading zero, at most two decimals: 0, 0.5, 12.34 — not -1, 05, 1.
  { code: 'money', title: '金额', pattern: /^(0|[1-9]\d*)(\.\d{1,2})?$/, message: '请输入正确的金额' },
];

const byCode = new Map(PATTERN_PRESETS.map((p) => [p.code, p]));
export const presetOf = (code: string): PatternPreset | undefined => byCode.get(code);
