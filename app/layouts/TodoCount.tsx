import { useCallback, useEffect, useState } from 'react';
import { Badge } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { http } from '@core/http/client';
import { LazyTooltip } from '@core/ui/LazyOverlay';
import { onNoticeSocket } from '@app/layouts/NoticeCenter';

export const TODO_PATH = '/workflow/todo';

/**
 * The signed-in user's 我的待办 count in the header (GET /workflow/task/todoCount). It refetches when the
 * notice socket says the to-do list changed (`todo`: a task of theirs created, completed, transferred…; `user`:
 * a new notice) and when 我的待办 is opened; a click opens 我的待办.
 */
export function TodoCount({ compact }: { compact?: boolean }) {
  const nav = useNavigate();
  const { pathname } = useLocation();
  const [count, setCount] = useState<number | undefined>(undefined);
  const load = useCallback(async () => {
    const r = await http.get<{ count: number }>('/workflow/task/todoCount').catch(() => undefined);
    if (r?.success) setCount(Number(r.result.count) || 0);
  }, []);
  const onTodo = pathname === TODO_PATH;
  useEffect(() => {
    void load();
  }, [load, onTodo]);
  useEffect(() => {
    let timer: number | undefined;
    const off = onNoticeSocket((cmd) => {
      if (cmd !== 'todo' && cmd !== 'user') return;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void load(), 200); // one refetch for a burst of pushes
    });
    return () => {
      off();
      window.clearTimeout(timer);
    };
  }, [load]);
  if (count === undefined) return null;
  return (
    <LazyTooltip title={`我的待办：${count} 项`}>
      <span className="header-action" role="button" aria-label={`我的待办 ${count} 项`} data-testid="todo-count" data-count={count} onClick={() => nav(TODO_PATH)}>
        <Badge count={count} size="small" overflowCount={99} data-testid="todo-badge">
          <AuditOutlined style={{ fontSize: 16 }} />
        </Badge>
        {!compact && <span className="header-todo-label">待办</span>}
      </span>
    </LazyTooltip>
  );
}
