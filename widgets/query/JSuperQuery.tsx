import { lazy, Suspense, useState } from 'react';
import { Badge, Button } from 'antd';
import { LazyTooltip } from '@core/ui/LazyOverlay';
import { lazyModule, moduleLoader } from '@core/ui/moduleLoader';
import type { MatchType, QueryField, QueryRow } from '../logic/query';

const loadBuilder = moduleLoader(() => import('./SuperQueryBuilder'));
const SuperQueryBuilder = lazy(() => lazyModule(loadBuilder, (m) => m.SuperQueryBuilder));

export interface JSuperQueryProps {
  fieldList: QueryField[];
  /** Saved queries are kept per page path. */
  saveCode?: string;
  onSearch?: (params: QueryRow[], matchType: MatchType) => void;
}

/**
 * The advanced query (高级查询): its button, drawn with the list page's toolbar, and the builder's
 * dialogs (./SuperQueryBuilder), loaded when the button is first pointed at or pressed and kept
 * mounted after, so the conditions stay between openings. The button shows when a query is in force.
 */
export function JSuperQuery({ fieldList, saveCode = location.pathname, onSearch }: JSuperQueryProps) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const [active, setActive] = useState(false);
  const preload = () => void loadBuilder().catch(() => undefined);
  return (
    <>
      {/* Its tooltip mounted on the first hover (an empty one mounted its trigger with every list page); the same parent while a query comes and goes, so the button keeps its place for the dialog's focus return. */}
      <LazyTooltip title={active ? '已有高级查询条件生效' : undefined}>
        <Badge dot={active}>
          <Button onMouseEnter={preload} onFocus={preload} onClick={() => (setUsed(true), setOpen(true))} type={active ? 'primary' : 'default'} ghost={active}>高级查询</Button>
        </Badge>
      </LazyTooltip>
      {used && (
        <Suspense fallback={null}>
          <SuperQueryBuilder
            fieldList={fieldList}
            saveCode={saveCode}
            open={open}
            onClose={() => setOpen(false)}
            onSearch={(params, matchType, isActive) => {
              setActive(isActive);
              onSearch?.(params, matchType);
            }}
          />
        </Suspense>
      )}
    </>
  );
}

export default JSuperQuery;
