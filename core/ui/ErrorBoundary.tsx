import { Component, type ReactNode } from 'react';
import { Button, Result } from 'antd';

/** Keeps one broken page from blanking the shell; a failed chunk load (new deployment) offers a reload. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = /dynamically imported module|Failed to fetch|Loading chunk/i.test(error.message);
    return (
      <Result
        status="500"
        title={chunk ? '页面资源加载失败' : '页面出错了'}
        subTitle={chunk ? '系统可能已更新，请重新加载页面。' : error.message}
        extra={<Button type="primary" onClick={() => window.location.reload()}>重新加载</Button>}
      />
    );
  }
}
