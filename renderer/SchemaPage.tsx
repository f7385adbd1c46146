import { Result } from 'antd';

// Placeholder until the renderer lands: the shell can already route to it.
export function SchemaPage({ pageId }: { pageId: string }) {
  return <Result status="info" title="建设中" subTitle={pageId} />;
}

export async function hasPageSchema(_pageId: string): Promise<boolean> {
  return false;
}
