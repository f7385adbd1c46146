import { readdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionTypes, pageKinds } from '@renderer/registry';
import '@renderer/SchemaPage';

const ROOT = resolve(__dirname, '../..');
const names = (dir: string, ext: RegExp) =>
  readdirSync(resolve(ROOT, dir))
    .filter((f) => ext.test(f))
    .map((f) => basename(f).replace(ext, ''))
    .sort();

describe('the renderer registries', () => {
  it('every page kind is one renderer file that registers it, with its meta-schema part', () => {
    const files = names('renderer/kinds', /\.tsx$/);
    expect(pageKinds().sort()).toEqual(files);
    expect(names('schemas/meta/kinds', /\.json$/)).toEqual(files);
  });
  it('every action type is one renderer file that registers it, with its meta-schema part', () => {
    const files = names('renderer/actions', /\.tsx?$/);
    expect(actionTypes().sort()).toEqual(files);
    expect(names('schemas/meta/actions', /\.json$/)).toEqual(files);
  });
});
