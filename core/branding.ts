export const APP_TITLE = '本科教学质量评估系统·听课子系统';
export const APP_SHORT_TITLE = '听课子系统';
export const COPYRIGHT = 'Copyright © 2022 本科教学质量评估系统·听课子系统 版权所有';

/** Header greeting by time of day (SPEC §1): before 9, up to 11, up to 13, before 20, else evening. */
export function greeting(d = new Date()) {
  const h = d.getHours();
  return h < 9 ? '早上好' : h <= 11 ? '上午好' : h <= 13 ? '中午好' : h < 20 ? '下午好' : '晚上好';
}
