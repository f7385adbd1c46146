import { useEffect, useState } from 'react';
import { http } from '@core/http/client';
import { errorText } from '@core/http/errors';
import { feedback } from '@core/feedback';

/** POST /sys/sms and a 60 s resend countdown. */
export function useSmsCountdown(seconds = 60) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(t);
  }, [left]);
  const send = async (body: { mobile: string; smsmode: '0' | '1' | '2' }) => {
    setSending(true);
    try {
      const r = await http.post('/sys/sms', body);
      if (!r.success) throw new Error(r.message || '验证码发送失败');
      feedback.message.success('验证码已发送，请注意查收');
      setLeft(seconds);
      return true;
    } catch (e) {
      feedback.message.error(errorText(e));
      return false;
    } finally {
      setSending(false);
    }
  };
  return { left, sending, send };
}
