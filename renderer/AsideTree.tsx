import { useEffect, useMemo, useState } from 'react';
import { Card, Empty, Grid, Input, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { http } from '@core/http/client';
import type { AsideSchema } from '@shared/page-schema';

type Node = Record<string, unknown>;

/** The tree's nodes from the url's answer (a nested list, or `{ records }`). */
export function toTreeData(list: unknown, tree: AsideSchema['tree']): DataNode[] {
  const key = tree.keyField ?? 'key';
  const title = tree.titleField ?? 'title';
  const kids = tree.childrenField ?? 'children';
  const rows = Array.isArray(list) ? (list as Node[]) : ((list as { records?: Node[] } | undefined)?.records ?? []);
  return rows.map((n) => {
    const children = Array.isArray(n[kids]) && (n[kids] as Node[]).length ? toTreeData(n[kids], tree) : undefined;
    return { key: String(n[key] ?? ''), title: String(n[title] ?? ''), children };
  });
}

/** The nodes whose title contains `text`, with their ancestors (every node when `text` is empty). */
export function filterTree(nodes: DataNode[], text: string): DataNode[] {
  if (!text) return nodes;
  return nodes.flatMap((n) => {
    const children = filterTree(n.children ?? [], text);
    if (String(n.title).includes(text)) return [{ ...n }];
    return children.length ? [{ ...n, children }] : [];
  });
}

const keysOf = (nodes: DataNode[]): string[] => nodes.flatMap((n) => [String(n.key), ...keysOf(n.children ?? [])]);

/** The aside tree of a list (renderer/list/AsideList.tsx). */
export default function AsideTree({ tree, selected, onSelect }: { tree: AsideSchema['tree']; selected?: string; onSelect: (key?: string) => void }) {
  const [data, setData] = useState<DataNode[]>();
  const [text, setText] = useState('');
  const screens = Grid.useBreakpoint();
  useEffect(() => {
    let live = true;
    void http.get<unknown>(tree.url).then(
      (r) => live && setData(r.success ? toTreeData(r.result, tree) : []),
      () => live && setData([]),
    );
    return () => {
      live = false;
    };
  }, [tree]);
  const shown = useMemo(() => (data ? filterTree(data, text.trim()) : undefined), [data, text]);
  const [expanded, setExpanded] = useState<string[]>();
  // Searching opens every match's branch; otherwise the roots start open.
  const expandedKeys = text.trim() && shown ? keysOf(shown) : (expanded ?? (data ?? []).map((n) => String(n.key)));
  return (
    <Card
      className="schema-aside"
      variant="borderless"
      size="small"
      title={tree.title}
      styles={{ body: { maxHeight: screens.md ? 640 : 280, overflow: 'auto' } }}
    >
      {tree.searchable && <Input.Search allowClear size="small" placeholder="搜索" style={{ marginBottom: 8 }} onChange={(e) => setText(e.target.value)} onSearch={setText} />}
      {!shown ? (
        <Spin />
      ) : shown.length ? (
        <Tree
          blockNode
          treeData={shown}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpanded(keys.map(String))}
          selectedKeys={selected ? [selected] : []}
          onSelect={(keys) => onSelect(keys[0] === undefined ? undefined : String(keys[0]))}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text ? '无匹配项' : '暂无数据'} />
      )}
    </Card>
  );
}
