import type { ApiBinding, PageSchema } from './page-schema';

/** The page's urls: explicit `api` entries win over those derived from `resource`. */
export function urlsOf(s: PageSchema): ApiBinding {
  const r = s.resource;
  const derived: ApiBinding = r
    ? {
        list: `${r}/list`,
        add: `${r}/add`,
        edit: `${r}/edit`,
        delete: `${r}/delete`,
        deleteBatch: `${r}/deleteBatch`,
        queryById: `${r}/queryById`,
        exportXls: `${r}/exportXls`,
        importExcel: `${r}/importExcel`,
      }
    : {};
  return { ...derived, ...s.api };
}
