import { useState, useSyncExternalStore, type ReactNode, type ReactPortal } from 'react';
import { createPortal } from 'react-dom';

/**
 * React content placed in grid-owned DOM (React cells, cell editors): portals rendered by the table
 * (`<PortalOutlet>`), so the content keeps the table's React context (antd locale, App) while the
 * grid itself stays plain DOM.
 */
export interface PortalHost {
  /** Renders `node` into `el`, or removes what was rendered there (`null`). */
  render(el: HTMLElement, node: ReactNode | null): void;
  subscribe(listener: () => void): () => void;
  portals(): ReactPortal[];
}

function createPortalHost(): PortalHost {
  const byElement = new Map<HTMLElement, ReactPortal>();
  let list: ReactPortal[] = [];
  let seq = 0;
  const listeners = new Set<() => void>();
  return {
    render(el, node) {
      if (node === null) {
        if (!byElement.delete(el)) return;
      } else byElement.set(el, createPortal(node, el, byElement.get(el)?.key ?? String(seq++)));
      list = [...byElement.values()];
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    portals: () => list,
  };
}

/** A portal host for one table, and the element that renders its portals. */
export function usePortals(): [PortalHost, ReactNode] {
  const [host] = useState(createPortalHost);
  return [host, <PortalOutlet host={host} />];
}

function PortalOutlet({ host }: { host: PortalHost }) {
  return <>{useSyncExternalStore(host.subscribe, host.portals)}</>;
}
