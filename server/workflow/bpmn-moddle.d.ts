declare module 'bpmn-moddle' {
  export class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(xml: string): Promise<{ rootElement: unknown; elementsById: Record<string, unknown>; references: unknown[]; warnings: Array<{ message: string }> }>;
  }
}
