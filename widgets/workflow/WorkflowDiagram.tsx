import { useEffect, useRef, useState } from 'react';
import { Alert } from 'antd';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './diagram.css';

/**
 * A read-only BPMN diagram (bpmn-js NavigatedViewer, loaded with this module only): `done` elements
 * (ended nodes, taken flows) green, `current` ones (open tasks) blue. The bpmn.io watermark stays.
 */
export function WorkflowDiagram({ xml, done = [], current = [] }: { xml?: string; done?: string[]; current?: string[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [error, setError] = useState('');
  const doneKey = done.join(',');
  const currentKey = current.join(',');
  useEffect(() => {
    if (!xml || !box.current) return;
    let viewer: { destroy(): void } | undefined;
    let alive = true;
    void (async () => {
      const { default: Viewer } = await import('bpmn-js/lib/NavigatedViewer');
      if (!alive || !box.current) return;
      const v = new Viewer({ container: box.current });
      viewer = v;
      try {
        await v.importXML(xml);
        const canvas = v.get('canvas') as { addMarker(id: string, m: string): void; zoom(a: string): void };
        const registry = v.get('elementRegistry') as { get(id: string): unknown };
        for (const id of doneKey.split(',')) if (registry.get(id)) canvas.addMarker(id, 'wf-done');
        for (const id of currentKey.split(',')) if (registry.get(id)) canvas.addMarker(id, 'wf-current');
        canvas.zoom('fit-viewport');
      } catch (e) {
        setError(`流程图无法显示：${(e as Error).message}`);
      }
    })();
    return () => {
      alive = false;
      viewer?.destroy();
    };
  }, [xml, doneKey, currentKey]);
  if (error) return <Alert type="warning" message={error} />;
  return <div ref={box} className="wf-diagram" data-testid="wf-diagram" />;
}
