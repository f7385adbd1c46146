import type { ComponentType } from 'react';

/**
 * The widget registry: every form control and table cell type, by the name page schemas use
 * (`x-component` in forms, `widget` in columns). Code may also import widgets directly.
 * Owned by the widget library; the renderer only reads from here.
 */
const registry = new Map<string, ComponentType<any>>();

export function registerWidget(name: string, component: ComponentType<any>) {
  registry.set(name, component);
}

export function getWidget(name: string): ComponentType<any> | undefined {
  return registry.get(name);
}

/** Starts loading a lazily loaded widget's code (see `lazyWidget`); settles when it is there or failed. */
export function preloadWidget(name: string): Promise<void> {
  const w = registry.get(name) as { preload?: () => Promise<unknown> } | undefined;
  return Promise.resolve(w?.preload?.()).then(() => undefined, () => undefined);
}

export function allWidgets(): Record<string, ComponentType<any>> {
  return Object.fromEntries(registry);
}
