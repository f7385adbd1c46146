import { createContext, useContext } from 'react';

/**
 * The current query parameters of a list page (page-URL `urlParams` + query form values, as sent to
 * the list api, without paging/sort). Cell and header widgets read it, e.g. a drill-down link that
 * keeps the list's term and department.
 */
export const ListQueryContext = createContext<Record<string, unknown>>({});
export const useListQuery = () => useContext(ListQueryContext);
