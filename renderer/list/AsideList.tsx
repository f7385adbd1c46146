import { lazy, Suspense, useMemo, useState } from 'react';
import { Card, Col, Row } from 'antd';
import { ListPage } from '../ListPage';
import type { PageKindProps } from '../registry';

const AsideTree = lazy(() => import('../AsideTree'));

/**
 * A list with `aside.tree`: a tree (e.g. the departments) left of the list, above it on phones; the
 * selected node's key is a bound parameter of the list (sent with every list call, given to new
 * records; choosing it again clears it). The list does not wait for the tree.
 */
export function AsideList(props: PageKindProps) {
  const tree = props.schema.aside!.tree;
  const [node, setNode] = useState<string>();
  const { params: bound } = props;
  const params = useMemo(() => (node === undefined ? bound : { ...bound, [tree.param]: node }), [node, bound, tree.param]);
  return (
    <Row gutter={[12, 12]} className="schema-aside-list">
      <Col xs={24} md={8} lg={7} xl={6}>
        <Suspense fallback={<Card variant="borderless" size="small" title={tree.title} loading />}>
          <AsideTree tree={tree} selected={node} onSelect={setNode} />
        </Suspense>
      </Col>
      <Col xs={24} md={16} lg={17} xl={18}>
        <ListPage {...props} params={params} />
      </Col>
    </Row>
  );
}
